DROP INDEX gifs_title_idx;
DROP INDEX gifs_favourites_idx;
DROP INDEX gifs_views_idx;
ALTER TABLE gifs DROP COLUMN favourite_count;
DROP TABLE favourites;

DROP TABLE search_terms;
DROP TABLE gif_daily_views;
ALTER TABLE gifs DROP COLUMN share_count;

DROP TABLE makes;
DROP INDEX gifs_made_from_idx;
ALTER TABLE gifs DROP COLUMN made_from_id;

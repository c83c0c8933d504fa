ALTER TABLE integrations DROP COLUMN max_rating;
DROP TABLE reports;
DROP INDEX gifs_hidden_idx;
ALTER TABLE gifs DROP COLUMN hidden_reason;
ALTER TABLE gifs DROP COLUMN hidden_at;

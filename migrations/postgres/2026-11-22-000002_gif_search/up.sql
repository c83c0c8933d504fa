-- Search (design.md §3): every word must be found in the title, the description or a tag name.
-- `search_text` holds those, lower-cased; a pg_trgm GIN index answers LIKE '%word%' fast.
ALTER TABLE gifs ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX gifs_search_trgm_idx ON gifs USING gin (search_text gin_trgm_ops);

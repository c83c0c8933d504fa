DROP TABLE jobs;
ALTER TABLE gif_renditions DROP COLUMN preferred;
ALTER TABLE gif_renditions DROP COLUMN codec;
ALTER TABLE gif_renditions DROP COLUMN duration_ms;
ALTER TABLE gif_renditions DROP COLUMN frames;

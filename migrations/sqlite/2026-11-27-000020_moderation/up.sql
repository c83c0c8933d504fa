-- How suitable each GIF is (g, pg, pg-13, r; the chat APIs filter by it). Existing GIFs are `g`:
-- they were uploaded before anyone could say otherwise, and an admin can edit them.
ALTER TABLE gifs ADD COLUMN rating TEXT NOT NULL DEFAULT 'g';

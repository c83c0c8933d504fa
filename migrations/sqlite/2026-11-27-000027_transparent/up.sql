-- Whether some pixel of some frame of the GIF is transparent: GIPHY's stickers are these GIFs
-- (docs/chat.md "Stickers"). Set at upload; null while not known (GIFs stored before this
-- migration), until `gifshelf renditions backfill` queues their renditions job, which decodes the
-- original once and records it.
ALTER TABLE gifs ADD COLUMN transparent BOOLEAN;
-- The stickers' lists and random pick read only the transparent GIFs (few, in most libraries).
CREATE INDEX gifs_transparent_idx ON gifs (view_count DESC, id DESC) WHERE transparent;

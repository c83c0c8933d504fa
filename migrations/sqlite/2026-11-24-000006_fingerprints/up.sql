-- Fingerprints of the stored original, for duplicate detection. `sha256` (hex) makes byte-identical
-- uploads a conflict; NULL for GIFs stored before this migration (SQL cannot hash blobs), which
-- `gifshelf fsck` fills in. `phash` is a 64-bit dHash (as a signed 64-bit integer) and `phash_b0`
-- to `phash_b3` its four 16-bit bands, indexed, so near duplicates are found by band candidates
-- and an exact Hamming check instead of a full scan.
ALTER TABLE gifs ADD COLUMN sha256 TEXT;
ALTER TABLE gifs ADD COLUMN phash BIGINT;
ALTER TABLE gifs ADD COLUMN phash_b0 INTEGER;
ALTER TABLE gifs ADD COLUMN phash_b1 INTEGER;
ALTER TABLE gifs ADD COLUMN phash_b2 INTEGER;
ALTER TABLE gifs ADD COLUMN phash_b3 INTEGER;
CREATE UNIQUE INDEX gifs_sha256_uq ON gifs (sha256);
CREATE INDEX gifs_phash_b0_idx ON gifs (phash_b0);
CREATE INDEX gifs_phash_b1_idx ON gifs (phash_b1);
CREATE INDEX gifs_phash_b2_idx ON gifs (phash_b2);
CREATE INDEX gifs_phash_b3_idx ON gifs (phash_b3);

-- The animated WebPs compete for `preferred` (docs/operations.md, renditions): for each animation
-- (the transparency known) and each size, the smallest of its candidates is marked again, as
-- `Renditions::with_preferred` does for new files: never the still; a WebP for any animation; a
-- video only for an opaque one; at equal sizes the GIF, then the video, then the WebP.
WITH candidates AS (
    SELECT r.gif_id, r.kind, ROW_NUMBER() OVER (
        PARTITION BY r.gif_id, CASE
            WHEN r.kind IN ('original', 'medium', 'mp4', 'webm', 'webp') THEN 'full'
            WHEN r.kind IN ('thumbnail', 'mp4_small', 'webm_small') THEN 'small'
            WHEN r.kind IN ('tiny', 'webp_tiny') THEN 'tiny'
            WHEN r.kind IN ('nano', 'webp_nano') THEN 'nano'
            ELSE 'fixed_height'
        END
        ORDER BY r.size,
            CASE WHEN r.kind LIKE 'webp%' THEN 1 ELSE 0 END,
            CASE WHEN r.kind IN ('mp4', 'mp4_small', 'webm', 'webm_small') THEN 1 ELSE 0 END,
            CASE r.kind
                WHEN 'original' THEN 0 WHEN 'thumbnail' THEN 1 WHEN 'tiny' THEN 3 WHEN 'nano' THEN 4
                WHEN 'fixed_height' THEN 5 WHEN 'medium' THEN 6 WHEN 'mp4' THEN 7 WHEN 'mp4_small' THEN 8
                WHEN 'webm' THEN 9 WHEN 'webm_small' THEN 10 WHEN 'webp' THEN 11
                WHEN 'webp_fixed_height' THEN 12 WHEN 'webp_tiny' THEN 13 ELSE 14
            END
    ) AS place
    FROM gif_renditions r JOIN gifs g ON g.id = r.gif_id
    WHERE g.frame_count > 1 AND g.transparent IS NOT NULL AND r.kind <> 'still'
        AND (r.kind NOT IN ('mp4', 'mp4_small', 'webm', 'webm_small') OR NOT g.transparent)
)
UPDATE gif_renditions SET preferred = EXISTS (
    SELECT 1 FROM candidates c WHERE c.gif_id = gif_renditions.gif_id AND c.kind = gif_renditions.kind AND c.place = 1
)
WHERE gif_id IN (SELECT gif_id FROM gif_renditions WHERE kind LIKE 'webp%')
    AND gif_id IN (SELECT id FROM gifs WHERE frame_count > 1 AND transparent IS NOT NULL);

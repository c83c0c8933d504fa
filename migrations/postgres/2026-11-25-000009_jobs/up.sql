-- What video renditions need (frames, play time, codec) and which file of each size a browser
-- should play; and the durable job queue that makes renditions after the upload answered.
ALTER TABLE gif_renditions ADD COLUMN frames INTEGER NOT NULL DEFAULT 1;
ALTER TABLE gif_renditions ADD COLUMN duration_ms INTEGER;
ALTER TABLE gif_renditions ADD COLUMN codec TEXT;
ALTER TABLE gif_renditions ADD COLUMN preferred BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE gif_renditions SET frames = (SELECT frame_count FROM gifs WHERE gifs.id = gif_renditions.gif_id)
    WHERE kind <> 'still';
UPDATE gif_renditions SET preferred = TRUE WHERE kind IN ('original', 'thumbnail');

CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    -- what to do ('make_renditions') and with what (a GIF id), as text a later version can read
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    -- 'queued' (waits for run_after), 'running' (leased to locked_by until locked_until), 'failed'
    -- (given up after its last attempt; last_error says why). Finished jobs are deleted.
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    run_after TIMESTAMP NOT NULL,
    locked_by TEXT,
    locked_until TIMESTAMP,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX jobs_due_idx ON jobs (state, run_after, id);
CREATE INDEX jobs_payload_idx ON jobs (kind, payload);

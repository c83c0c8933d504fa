-- What the chat-compatible APIs rank by: shares per GIF (a chat app posted it), views per GIF and
-- day ("featured" = most viewed of recent weeks) and searches per term and day (trending terms).
ALTER TABLE gifs ADD COLUMN share_count BIGINT NOT NULL DEFAULT 0;

CREATE TABLE gif_daily_views (
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    -- midnight UTC of the day
    day TIMESTAMP NOT NULL,
    views BIGINT NOT NULL,
    PRIMARY KEY (gif_id, day)
);
CREATE INDEX gif_daily_views_day_idx ON gif_daily_views (day, gif_id);

CREATE TABLE search_terms (
    term TEXT NOT NULL,
    day TIMESTAMP NOT NULL,
    searches BIGINT NOT NULL,
    PRIMARY KEY (term, day)
);
CREATE INDEX search_terms_day_idx ON search_terms (day);

-- Who viewed a GIF through its share page on a day (midnight UTC), so that each client counts one
-- view a day however often it reloads. `viewer` is the hex SHA-256 of the signed-in user's id or
-- of the client's IPv4 address or IPv6 /64, never an address. Derived data, not exported: rows of
-- days before yesterday are removed whenever the GIF is viewed again, and with their GIF.
CREATE TABLE gif_viewers (
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    day TIMESTAMP NOT NULL,
    viewer TEXT NOT NULL,
    PRIMARY KEY (gif_id, day, viewer)
);

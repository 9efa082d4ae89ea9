-- What every bot process must see, now that several may share one PostgreSQL database. A lease is work a
-- process holds for a while: an upload being checked (one per person, and only so many at once in all)
-- or a server's tournament being played. It ends with its work, or at `expires_at` if its process died
-- (the holder renews it while the work runs; `token` is the taking's own, so a holder that lost its lease
-- to another can neither renew nor release the other's). Upload cooldowns: when each person's last sandbox run
-- started their cooldown, and the times of their recent quick refusals (a JSON list), a few of which are
-- free. Portable: both dialects accept these statements.

CREATE TABLE leases (
    kind TEXT NOT NULL CHECK (kind IN ('upload', 'tournament')),
    holder_id BIGINT NOT NULL,
    token TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, holder_id)
);

CREATE TABLE upload_cooldowns (
    player_id BIGINT PRIMARY KEY REFERENCES players (id),
    charged_at DOUBLE PRECISION,
    quick_tries TEXT NOT NULL DEFAULT '[]'
);

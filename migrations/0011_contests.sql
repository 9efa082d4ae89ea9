-- Contests run as the course runs them (seeds 000/001/003): one open contest per server and rule set, with
-- its close time; entries of one person or a pair (each person in at most one entry of a contest), each
-- naming a stored strategy by its owner and name until the close, when the version then active is frozen
-- with the entry's random number, place and results. The final tournament's record (what
-- `hog tournament --replay` takes, zlib-compressed then base64) is stored with the results before they are
-- posted (`posted`). Practice pairs: the exact win rate of one table against another, by their hashes, so
-- a new entry's practice standing computes only the pairs never seen. Contest ids are given by the service
-- (no portable identity column). Portable: PostgreSQL accepts the same statements.

CREATE TABLE contests (
    id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    rules TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('exact', 'sampled')),
    title TEXT,
    opened_by BIGINT,
    opened_at DOUBLE PRECISION NOT NULL,
    closes_at DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status = 'open' OR status = 'closed'),
    seed TEXT,
    closed_at DOUBLE PRECISION,
    record TEXT,
    posted SMALLINT NOT NULL DEFAULT 0 CHECK (posted IN (0, 1))
);
CREATE UNIQUE INDEX contests_open ON contests (guild_id, rules) WHERE status = 'open';
CREATE INDEX contests_due ON contests (closes_at) WHERE status = 'open';
CREATE INDEX contests_unposted ON contests (id) WHERE status = 'closed' AND posted = 0;

CREATE TABLE contest_entries (
    contest_id BIGINT NOT NULL REFERENCES contests (id),
    lead_id BIGINT NOT NULL,
    owner_id BIGINT,
    strategy_name TEXT,
    number INTEGER,
    place INTEGER,
    strategy_id BIGINT,
    team_name TEXT,
    wins INTEGER,
    losses INTEGER,
    tiebreak DOUBLE PRECISION,
    baseline DOUBLE PRECISION,
    PRIMARY KEY (contest_id, lead_id)
);

CREATE TABLE contest_members (
    contest_id BIGINT NOT NULL,
    player_id BIGINT NOT NULL,
    lead_id BIGINT NOT NULL,
    PRIMARY KEY (contest_id, player_id),
    FOREIGN KEY (contest_id, lead_id) REFERENCES contest_entries (contest_id, lead_id)
);

CREATE TABLE contest_pairs (
    rules TEXT NOT NULL,
    a_hash TEXT NOT NULL,
    b_hash TEXT NOT NULL,
    rate DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (rules, a_hash, b_hash)
);
CREATE INDEX contest_pairs_second ON contest_pairs (rules, b_hash);

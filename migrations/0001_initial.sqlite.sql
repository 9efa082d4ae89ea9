-- Players, matches and their append-only turns: SQLite's form (0001_initial.postgresql.sql is
-- PostgreSQL's, where SQLite's `INTEGER PRIMARY KEY` row id becomes an identity column).
-- Times are Unix seconds; flags are 0/1 SMALLINTs; user, channel and message ids are 64-bit.

CREATE TABLE players (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    goal INTEGER NOT NULL CHECK (goal BETWEEN 1 AND 100),
    status TEXT NOT NULL CHECK (
        status IN ('pending', 'active', 'finished', 'declined', 'cancelled', 'expired', 'forfeit', 'timeout')
    ),
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    player0_id BIGINT REFERENCES players (id),
    player1_id BIGINT REFERENCES players (id),
    bot_level TEXT CHECK (bot_level IN ('easy', 'course', 'perfect')),
    score0 INTEGER NOT NULL DEFAULT 0,
    score1 INTEGER NOT NULL DEFAULT 0,
    mover SMALLINT NOT NULL DEFAULT 0 CHECK (mover IN (0, 1)),
    turn INTEGER NOT NULL DEFAULT 0,
    chop_used0 SMALLINT NOT NULL DEFAULT 0 CHECK (chop_used0 IN (0, 1)),
    chop_used1 SMALLINT NOT NULL DEFAULT 0 CHECK (chop_used1 IN (0, 1)),
    streak0 INTEGER NOT NULL DEFAULT 0,
    streak1 INTEGER NOT NULL DEFAULT 0,
    exchanges INTEGER NOT NULL DEFAULT 0,
    seed_hash TEXT,
    seed TEXT,
    winner SMALLINT CHECK (winner IN (0, 1)),
    challenge_expires_at DOUBLE PRECISION,
    turn_deadline DOUBLE PRECISION,
    rematch_vote0 SMALLINT NOT NULL DEFAULT 0 CHECK (rematch_vote0 IN (0, 1)),
    rematch_vote1 SMALLINT NOT NULL DEFAULT 0 CHECK (rematch_vote1 IN (0, 1)),
    rematch_of INTEGER UNIQUE REFERENCES matches (id),
    version INTEGER NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION,
    CHECK (player0_id IS NOT NULL OR player1_id IS NOT NULL)
);

CREATE INDEX matches_by_channel ON matches (channel_id, status);
CREATE INDEX matches_by_challenge_expiry ON matches (status, challenge_expires_at);
CREATE INDEX matches_by_turn_deadline ON matches (status, turn_deadline);

CREATE TABLE turns (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    turn INTEGER NOT NULL,
    player SMALLINT NOT NULL CHECK (player IN (0, 1)),
    user_id BIGINT REFERENCES players (id),
    choice INTEGER NOT NULL,
    dice INTEGER NOT NULL,
    sides INTEGER NOT NULL,
    outcomes TEXT NOT NULL,
    points INTEGER NOT NULL,
    events TEXT NOT NULL,
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    played_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, turn)
);

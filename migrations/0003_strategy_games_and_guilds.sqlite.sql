-- House-bot games that play a stored strategy (bot_level 'strategy'), the server (guild) of each match
-- for per-server leaderboards, and the house bot's rematch vote recorded like a person's.
-- SQLite cannot change a CHECK constraint, so `matches` is rebuilt: copied aside, dropped, created
-- anew and refilled in this one transaction. Foreign keys (turns, ratings, strategy games, rematches)
-- point at `matches` by name; the runner defers them to the commit, when every row is back.
-- PostgreSQL changes the constraint in place instead: 0003_strategy_games_and_guilds.postgresql.sql.

CREATE TABLE matches_before_0003 AS SELECT * FROM matches;

DROP TABLE matches;

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    goal INTEGER NOT NULL CHECK (goal BETWEEN 1 AND 100),
    status TEXT NOT NULL CHECK (
        status IN ('pending', 'active', 'finished', 'declined', 'cancelled', 'expired', 'forfeit', 'timeout')
    ),
    guild_id BIGINT,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    player0_id BIGINT REFERENCES players (id),
    player1_id BIGINT REFERENCES players (id),
    bot_level TEXT CHECK (bot_level IN ('easy', 'course', 'perfect', 'strategy')),
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

INSERT INTO matches (
    id, rules, goal, status, channel_id, message_id, player0_id, player1_id, bot_level, score0, score1,
    mover, turn, chop_used0, chop_used1, streak0, streak1, exchanges, seed_hash, seed, winner,
    challenge_expires_at, turn_deadline, rematch_vote0, rematch_vote1, rematch_of, version, created_at,
    updated_at, finished_at
)
SELECT
    id, rules, goal, status, channel_id, message_id, player0_id, player1_id, bot_level, score0, score1,
    mover, turn, chop_used0, chop_used1, streak0, streak1, exchanges, seed_hash, seed, winner,
    challenge_expires_at, turn_deadline, rematch_vote0, rematch_vote1, rematch_of, version, created_at,
    updated_at, finished_at
FROM matches_before_0003 ORDER BY id;

DROP TABLE matches_before_0003;

-- The house bot always wants a rematch: its seat's vote is now stored when its game is created.
UPDATE matches SET rematch_vote0 = 1 WHERE bot_level IS NOT NULL AND player0_id IS NULL;
UPDATE matches SET rematch_vote1 = 1 WHERE bot_level IS NOT NULL AND player1_id IS NULL;

CREATE INDEX matches_by_channel ON matches (channel_id, status);
CREATE INDEX matches_by_challenge_expiry ON matches (status, challenge_expires_at);
CREATE INDEX matches_by_turn_deadline ON matches (status, turn_deadline);
CREATE INDEX matches_by_guild ON matches (guild_id, status);

-- Uploaded strategies (with their replaced versions), tournaments and their standings, ratings and
-- their history, and the stored strategy a house-bot game plays: SQLite's form (0002_strategies.postgresql.sql
-- is PostgreSQL's: identity ids and BYTEA for BLOB). Times are Unix seconds.

CREATE TABLE strategies (
    id INTEGER PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    owner_id BIGINT NOT NULL REFERENCES players (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    rules TEXT NOT NULL,
    source_kind TEXT NOT NULL CHECK (source_kind IN ('py', 'json')),
    table_data BLOB NOT NULL,
    source_hash TEXT NOT NULL,
    table_hash TEXT NOT NULL,
    active SMALLINT NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    figures TEXT,
    cpu_seconds DOUBLE PRECISION,
    created_at DOUBLE PRECISION NOT NULL,
    replaced_at DOUBLE PRECISION
);

-- A name is unique among a server's active strategies; replaced versions keep it as history.
CREATE UNIQUE INDEX strategies_active_name ON strategies (guild_id, name_key) WHERE active = 1;
CREATE INDEX strategies_by_guild_rules ON strategies (guild_id, rules, active);
CREATE INDEX strategies_by_owner ON strategies (owner_id);
CREATE INDEX strategies_by_table ON strategies (rules, table_hash);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    rules TEXT NOT NULL,
    goal INTEGER NOT NULL CHECK (goal BETWEEN 1 AND 100),
    format TEXT NOT NULL CHECK (format IN ('exact', 'sampled')),
    started_by BIGINT REFERENCES players (id),
    created_at DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, rules, id);

CREATE TABLE tournament_standings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    place INTEGER NOT NULL,
    strategy_id INTEGER REFERENCES strategies (id),
    owner_id BIGINT REFERENCES players (id),
    name TEXT NOT NULL,
    points DOUBLE PRECISION NOT NULL,
    tiebreak DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, place)
);

CREATE INDEX tournament_standings_by_strategy ON tournament_standings (strategy_id);
CREATE INDEX tournament_standings_by_owner ON tournament_standings (owner_id);

CREATE TABLE ratings (
    player_id BIGINT NOT NULL REFERENCES players (id),
    rules TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, rules)
);

CREATE INDEX ratings_by_rules ON ratings (rules);

-- One row per rated player per match: a match with rows here is rated (never twice).
CREATE TABLE rating_history (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    rules TEXT NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    rated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, player_id)
);

CREATE INDEX rating_history_by_player ON rating_history (player_id, rated_at);

-- The stored strategy a house-bot game plays: a copy of its table, so deleting it cannot break the game.
CREATE TABLE match_strategies (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    strategy_id INTEGER REFERENCES strategies (id),
    name TEXT NOT NULL,
    table_data BLOB NOT NULL
);

CREATE INDEX match_strategies_by_strategy ON match_strategies (strategy_id);

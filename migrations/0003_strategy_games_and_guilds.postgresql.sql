-- House-bot games that play a stored strategy (bot_level 'strategy'), the server (guild) of each match
-- for per-server leaderboards, and the house bot's rematch vote recorded like a person's: PostgreSQL's
-- form of 0003_strategy_games_and_guilds.sqlite.sql, which must rebuild the table to change a CHECK.

ALTER TABLE matches DROP CONSTRAINT matches_bot_level_check;

ALTER TABLE matches ADD CONSTRAINT matches_bot_level_check
    CHECK (bot_level IN ('easy', 'course', 'perfect', 'strategy'));

ALTER TABLE matches ADD COLUMN guild_id BIGINT;

-- The house bot always wants a rematch: its seat's vote is now stored when its game is created.
UPDATE matches SET rematch_vote0 = 1 WHERE bot_level IS NOT NULL AND player0_id IS NULL;
UPDATE matches SET rematch_vote1 = 1 WHERE bot_level IS NOT NULL AND player1_id IS NULL;

CREATE INDEX matches_by_guild ON matches (guild_id, status);

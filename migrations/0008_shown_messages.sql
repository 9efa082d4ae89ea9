-- What each message last showed, so a bot restarted after a crash (kill -9, an OOM kill, a reboot)
-- between storing a change and showing it redraws exactly what lags: `matches.shown_version` is the match
-- version its message shows (NULL while no message shows it); a tournament keeps the channel it was
-- started in and whether its standings were shown. Rows stored before this are taken as shown (nothing
-- says otherwise). The partial indexes hold only what lags, so the start-up query stays cheap however
-- many games were played. Portable: PostgreSQL accepts the same statements.

ALTER TABLE matches ADD COLUMN shown_version INTEGER;
UPDATE matches SET shown_version = version WHERE message_id IS NOT NULL;
CREATE INDEX matches_unshown ON matches (id) WHERE shown_version < version;
CREATE INDEX matches_unposted ON matches (id) WHERE message_id IS NULL AND status IN ('pending', 'active');

ALTER TABLE tournaments ADD COLUMN channel_id BIGINT;
ALTER TABLE tournaments ADD COLUMN shown SMALLINT NOT NULL DEFAULT 0 CHECK (shown IN (0, 1));
UPDATE tournaments SET shown = 1;
CREATE INDEX tournaments_unshown ON tournaments (id) WHERE shown = 0;

-- Every moment that concerns a player reaches them once, and a coach for those who ask. A game's notice now
-- announces one of several moments: `matches.notice_kind` says which the last decided one was (0: the turn
-- passing, as before; 1: the turn's time running out; 2: the game's end, or a challenge declined or
-- expired; 3: a rematch wanted), and `notice_turn` the turn it was about, so each moment is announced once
-- whatever restarts happen (rows stored before this announced turns: 0). `players.coach` is whether a
-- person asked for the live coach (`/hog coach`: off until they turn it on). Portable: both dialects accept
-- these statements.

ALTER TABLE matches ADD COLUMN notice_kind SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN coach SMALLINT NOT NULL DEFAULT 0 CHECK (coach IN (0, 1));

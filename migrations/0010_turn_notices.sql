-- Turn notices, and turn clocks that start when the board is shown. `matches.notice_id` is the game's live
-- turn notice (a message of its own that mentions the person to move, so Discord notifies them; NULL:
-- none), and `notice_turn` the turn at which the moves it announces began, so a run of turns is announced
-- once, whatever restarts happen. `players.turn_notices` is whether a person wants notices (1, the
-- default) or turned them off. A person's turn clock (`matches.turn_deadline`) now starts when the board
-- showing that turn is shown; games stored before this keep the deadline they have. Portable: both
-- dialects accept these statements.

ALTER TABLE matches ADD COLUMN notice_id BIGINT;
ALTER TABLE matches ADD COLUMN notice_turn INTEGER;
ALTER TABLE players ADD COLUMN turn_notices SMALLINT NOT NULL DEFAULT 1 CHECK (turn_notices IN (0, 1));

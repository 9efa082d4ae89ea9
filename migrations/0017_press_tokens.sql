-- Answers that cost Discord's global rate limit nothing. For 15 minutes a person's press (or command) can be
-- answered through its own interaction's webhook, which that limit does not bind: the board edited, a notice
-- posted as a follow-up, that notice deleted again. Every bot process may need such a token (the house bot's
-- move after a restart, the clock's notices, the next press's deletion of a notice), so it is kept here,
-- and only while it works: `press_tokens` holds at most two per game, the token whose press the board last
-- answered (`reaches` 0) and the one the game's live notice was posted through (1); `message_id` is the
-- message it reaches, as the press's own message (`original` 1: Discord's @original) or as a message it
-- posted; `usable_until` is when the bot stops using it (a little before Discord does), and the clock
-- deletes the rows past it. `matches.notice_attempt` is when a notice began to be posted through a token
-- (a follow-up carries no nonce for Discord to enforce): set until the notice is recorded, it tells the next
-- try that the last one's outcome is unknown, so the channel is looked at before posting again. Portable:
-- both dialects accept these statements.

CREATE TABLE press_tokens (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    reaches SMALLINT NOT NULL CHECK (reaches IN (0, 1)),
    token TEXT NOT NULL,
    message_id BIGINT NOT NULL,
    original SMALLINT NOT NULL CHECK (original IN (0, 1)),
    usable_until DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, reaches)
);

CREATE INDEX press_tokens_usable_until ON press_tokens (usable_until);

ALTER TABLE matches ADD COLUMN notice_attempt DOUBLE PRECISION;

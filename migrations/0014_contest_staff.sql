-- Course staff run contests. `guild_staff`: a server's staff role, set by a manager: its members may run
-- the staff commands as members with Manage Server do. `course_ids`: the course id a person linked on a
-- server (`/hog link`), shown only in staff exports, deleted by forget-me. Contests remember the role
-- their announcements ping (`ping_role_id`, none: no ping), the reminders sent before the close
-- (`reminded`: the hours before the close of the latest one sent, 24 then 1; none yet: NULL), and the
-- message of their posted results (linked from each entrant's DM). An entry remembers when it was made.
-- `contest_invitations`: the partner invitations and their messages, so a finished one loses its buttons
-- (answered, overtaken by another pair, or its contest closed: `shown` = 0 while its message still shows
-- buttons) and its inviter is told of the answer once (`to_tell` = 1 until then), whatever restarts.
-- Contest places rank by wins, then the exact win rate against always_roll(5) (`baseline`): the
-- format's own tie-break, kept until now beside it, goes. Portable: PostgreSQL accepts the same.

CREATE TABLE guild_staff (
    guild_id BIGINT PRIMARY KEY,
    role_id BIGINT NOT NULL,
    set_by BIGINT,
    set_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE course_ids (
    guild_id BIGINT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    course_id TEXT NOT NULL,
    linked_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);

ALTER TABLE contests ADD COLUMN ping_role_id BIGINT;
ALTER TABLE contests ADD COLUMN reminded INTEGER;
ALTER TABLE contests ADD COLUMN results_message_id BIGINT;
ALTER TABLE contest_entries ADD COLUMN entered_at DOUBLE PRECISION;
ALTER TABLE contest_entries DROP COLUMN tiebreak;
CREATE INDEX contests_reminding ON contests (closes_at) WHERE status = 'open' AND (reminded IS NULL OR reminded > 1);

CREATE TABLE contest_invitations (
    contest_id BIGINT NOT NULL REFERENCES contests (id),
    inviter_id BIGINT NOT NULL,
    invitee_id BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'declined', 'void')),
    created_at DOUBLE PRECISION NOT NULL,
    answered_at DOUBLE PRECISION,
    shown SMALLINT NOT NULL DEFAULT 1 CHECK (shown IN (0, 1)),
    to_tell SMALLINT NOT NULL DEFAULT 0 CHECK (to_tell IN (0, 1)),
    PRIMARY KEY (contest_id, inviter_id, invitee_id)
);
CREATE INDEX contest_invitations_lagging ON contest_invitations (contest_id) WHERE shown = 0 OR to_tell = 1;

-- Upload cooldowns per person and rule set: a course's students upload to every semester's contest, and
-- only an upload that kept the sandbox busy starts one (`cpu_seconds`, which the refusal quotes). The old
-- rows (one per person, with a list of quick refusals) last minutes at most: they are dropped, not carried.
-- Portable: both dialects accept these statements.

DROP TABLE upload_cooldowns;

CREATE TABLE upload_cooldowns (
    player_id BIGINT NOT NULL REFERENCES players (id),
    rules TEXT NOT NULL,
    charged_at DOUBLE PRECISION NOT NULL,
    cpu_seconds DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, rules)
);

-- Discord Activity instances (bot/activity/): everyone in a running Activity shares its instance id. An
-- instance runs in one channel of a server and shows one game at a time: `match_id`, the match its people
-- play or watch, the very match the channel's board shows. Before a game one person may wait at the table
-- for a friend (`host_id`, with the rule set and goal they chose). Every change bumps `version` and is
-- conditional on the version read, so two bot processes serving the Activity never seat two people in one
-- chair. Instances long left alone are dropped (`updated_at`). Portable: both dialects accept these.

CREATE TABLE activity_instances (
    instance_id TEXT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    match_id INTEGER REFERENCES matches (id),
    host_id BIGINT REFERENCES players (id),
    rules TEXT,
    goal INTEGER,
    version INTEGER NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX activity_instances_by_match ON activity_instances (match_id);
CREATE INDEX activity_instances_by_age ON activity_instances (updated_at);

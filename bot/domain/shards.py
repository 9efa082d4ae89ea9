"""Which servers a bot process serves when the bot runs as several processes, each some shards.

Discord puts a server (guild) on shard `(guild_id >> 22) % shard_count`, and direct messages on shard 0;
a process's clock and house bot act only on the matches of its own shards, so two processes never close
or move the same game.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Shards:
    """The shard ids a process runs, out of `count`."""

    count: int
    ids: frozenset[int]

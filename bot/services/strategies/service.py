"""Uploaded strategies: checked (size and type first), run in the sandbox off the event loop in a bounded
pool, stored per server with their exact win rates, listed, shown, replaced (history kept) and deleted."""

import asyncio
import hashlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any, TypeVar

import numpy as np

from bot.domain.errors import (
    BadStrategyName,
    BadTable,
    EmptyFile,
    FileTooLarge,
    NameTaken,
    NoStrategyCalled,
    NotTheirStrategy,
    NotUtf8,
    NotYourStrategy,
    PreviousUploadPending,
    StrategyNotFound,
    StrategyRefused,
    TooManyStrategies,
    UploadOvertaken,
    UploadsBusy,
    UploadStopped,
    UploadsUnavailable,
    WrongFileType,
    WrongRules,
)
from bot.domain.matches import Player
from bot.domain.settings import UploadLimits
from bot.domain.strategies import Matchup, StoredStrategy, Ticket, Upload
from bot.services.clock import Clock
from bot.services.leases import Lease, Leases, Taking
from bot.services.solver import Solver
from bot.services.strategies.cooldowns import Cooldowns
from bot.services.strategies.figures import compute_figures, current
from bot.storage import Connection, Database
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage.database import NEW, Reader
from bot.storage.leases import LeaseKind
from bot.storage.strategies import table_bytes
from hogengine.errors import BadStrategy
from hogengine.game import MAX_GOAL
from hogengine.rules import DEFAULT_RULES, RuleSet, get_rules
from hogengine.sandbox import EvaluationStopped, SandboxUnavailable
from hogengine.sandbox.entry import check_entry
from hogengine.sandbox.evaluate import MAX_SOURCE_BYTES
from hogengine.strategies import Table, table_from_json
from hogengine.text import readable

T = TypeVar("T")
KINDS = (".py", ".json")
MAX_NAME = 32  # characters of a strategy name


def check_upload(filename: str, size: int) -> str:
    """The file's kind ("py" or "json") if its size and type are acceptable; call before downloading it."""
    suffix = PurePath(filename).suffix.lower()
    if suffix not in KINDS:
        raise WrongFileType
    if size > MAX_SOURCE_BYTES:
        raise FileTooLarge(MAX_SOURCE_BYTES // 1_000_000)
    if size == 0:
        raise EmptyFile
    return suffix[1:]


def made_name(text: str) -> str:
    """A strategy name made from other text (a file's name, a TEAM_NAME) as it is written, on one line, cut
    to MAX_NAME characters with an ellipsis (the TEAM_NAME itself is kept whole beside it)."""
    made = " ".join(text.split())
    if len(made) > MAX_NAME:
        made = made[: MAX_NAME - 1].rstrip() + "…"
    return made if readable(made) else "strategy"


def strategy_name(name: str | None, filename: str) -> str:
    """A checked strategy name: the one given (one line of 1 to MAX_NAME characters, apostrophes, accents
    and emoji as written), or one made from the file's name."""
    if name is None:
        return made_name(PurePath(filename).stem)
    name = name.strip()
    if len(name) > MAX_NAME or not readable(name):
        raise BadStrategyName(MAX_NAME)
    return name


def choice_labels(rules: str) -> dict[int, str]:
    """How each legal choice of a rule set reads, for a heatmap's legend."""
    ruleset = get_rules(rules)
    return {choice: ruleset.choice_label(choice) for choice in ruleset.choices}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class _Checked:
    """What checking an upload found: its table, the sandbox's CPU seconds (None for a JSON table), and
    from a Python file its TEAM_NAME and, if it answers at random, its recorded tables."""

    table: Table
    cpu_seconds: float | None
    team_name: str | None = None
    tables: tuple[Table, ...] = ()


def _json_table(data: bytes, ruleset: RuleSet) -> Table:
    """A JSON upload's table, or StrategyRefused naming what is wrong."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise NotUtf8 from None
    try:
        return table_from_json(text, ruleset)
    except BadStrategy as error:
        raise BadTable(str(error)) from None


class StrategyService:
    """Strategies of every server; evaluation and figures run in a bounded thread pool."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        limits: UploadLimits,
        solver: Solver | None = None,
    ) -> None:
        self.limits = limits
        self._solver = solver or Solver()
        self._db = db
        self._clock = clock
        self._pool = ThreadPoolExecutor(self.limits.workers, thread_name_prefix="hog-upload")
        self._rations = Cooldowns(db, self.limits.cooldown_seconds, clock)
        self._leases = Leases(db, clock)
        # An upload being checked: one per person at a time, `waiting` in all (across every bot process).
        self._upload = Lease(
            LeaseKind.UPLOAD, PreviousUploadPending, UploadOvertaken, self.limits.waiting, UploadsBusy
        )
        self._stop = threading.Event()

    def stop(self) -> None:
        """Kill the sandboxes running and any started later: each of their uploads raises UploadStopped (the
        bot is stopping; nothing of them is stored)."""
        self._stop.set()

    def close(self) -> None:
        """Stop the sandboxes, then the pool (what else runs in it, a table's figures, finishes first)."""
        self.stop()
        self._pool.shutdown(wait=True, cancel_futures=True)

    async def _offload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking function in the pool, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def admit(
        self,
        guild_id: int,
        owner: Player,
        filename: str,
        size: int,
        *,
        name: str | None = None,
        rules: str = DEFAULT_RULES,
    ) -> Ticket:
        """Everything that can be checked before the file is downloaded: its size and type, the rules, the
        name (free, or the owner's own) and the owner's room for it when the name is known now, the
        owner's cooldown and the queue. A Python file given no name is named by its TEAM_NAME, known only
        once it has run, so its name is checked when it is stored.

        Raises UploadRefused, UnknownRules, NameTaken, TooManyStrategies, OnCooldown or UploadsBusy.
        """
        kind = check_upload(filename, size)
        ruleset = get_rules(rules)
        chosen = strategy_name(name, filename)
        if name is not None or kind == "json":
            await self._replaced(self._db, guild_id, owner, chosen, ruleset.id)
        await self._rations.check(owner.id, ruleset)
        await self._leases.check(self._upload, owner.id)
        return Ticket(guild_id, owner, filename, kind, chosen, name is not None, ruleset.id)

    async def evaluate(self, ticket: Ticket, data: bytes) -> Upload:
        """Check the downloaded file of an admitted upload and store it, named by its TEAM_NAME unless the
        uploader gave a name; the same name of the same owner replaces the old version. A run of the
        sandbox (or an accepted table) starts the owner's cooldown, unless it found a mistake they can fix
        at once (see `rations`).

        Raises what `admit` raises (things may have changed meanwhile), UploadsUnavailable,
        StrategyRefused with the sandbox's one-line reason and its `kind`, UploadStopped, or UploadOvertaken
        (the owner's lease went to another upload while this one was checked: see bot/services/leases.py).
        """
        check_upload(ticket.filename, len(data))
        ruleset = get_rules(ticket.rules)
        await self._rations.check(ticket.owner.id, ruleset)
        async with self._leases.held(self._upload, ticket.owner.id) as taking:
            checked, retry_at = await self._run(ticket, data, ruleset)
            table_hash = _sha256(table_bytes(checked.table))
            figures = await self._figures(ruleset.id, checked.table, table_hash)
            team = checked.team_name
            strategy = StoredStrategy(
                id=NEW,
                guild_id=ticket.guild_id,
                owner=ticket.owner,
                name=ticket.name if ticket.named or team is None else made_name(team),
                team_name=team,
                rules=ruleset.id,
                source_kind=ticket.kind,
                source_hash=_sha256(data),
                table_hash=table_hash,
                active=True,
                figures=figures,
                cpu_seconds=checked.cpu_seconds,
                created_at=self._clock(),
                replaced_at=None,
                table=checked.table,
                tables=checked.tables,
            )
            return replace(await self._store(strategy, taking), retry_at=retry_at)

    async def _figures(self, rules: str, table: Table, table_hash: str) -> tuple[Matchup, ...]:
        """The table's figures: those of an identical table stored before, else computed in the pool."""
        known = await strategy_table.same_table(self._db, rules, table_hash)
        stored = () if known is None else known.figures
        if current(stored):
            return stored
        perfect = (await self._solver.solution(rules, MAX_GOAL)).policy
        return await self._offload(compute_figures, rules, table, perfect)

    async def _replaced(
        self, db: Reader, guild_id: int, owner: Player, name: str, rules: str
    ) -> StoredStrategy | None:
        """The owner's active strategy that a new one called `name` replaces (None: a new name), once the
        name is checked to be nobody else's and the owner to have room for it under these rules; NameTaken
        or TooManyStrategies."""
        current = await strategy_table.active_by_name(db, guild_id, name)
        if current is not None and current.owner.id != owner.id:
            raise NameTaken(current.name, current.owner.name)
        mine = await strategy_table.active_strategies(db, guild_id, rules, owner.id)
        self._check_room([strategy.name for strategy in mine], name, rules)
        return current

    def _check_room(self, names: list[str], name: str, rules: str) -> None:
        """TooManyStrategies if a new strategy called `name` would pass the owner's limit under these rules
        (re-uploading one of `names`, their active strategies, replaces it and is always fine)."""
        if name.casefold() in (other.casefold() for other in names) or len(names) < self.limits.per_person:
            return
        raise TooManyStrategies(rules, names)

    async def _run(self, ticket: Ticket, data: bytes, ruleset: RuleSet) -> tuple[_Checked, float | None]:
        """What checking the upload found, and when its owner may upload again under these rules: they are
        rationed by what the check cost. A refusal says when, too."""
        try:
            checked = await self._evaluate(ticket.kind, data, ruleset)
        except StrategyRefused as refused:
            retry_at = await self._rations.charge(ticket.owner, ruleset, refused.cpu_seconds)
            if retry_at is None:
                raise
            raise StrategyRefused(
                refused.reason, refused.kind, refused.cpu_seconds, retry_at, ruleset.name
            ) from refused
        return checked, await self._rations.charge(ticket.owner, ruleset, checked.cpu_seconds)

    async def _evaluate(self, kind: str, data: bytes, ruleset: RuleSet) -> _Checked:
        """A JSON table as read, or a Python file as the sandbox found it under the rule set's contest
        rules; StrategyRefused otherwise."""
        if kind == "json":
            return _Checked(await self._offload(_json_table, data, ruleset), None)
        try:
            verdict = await self._offload(check_entry, data, ruleset, self.limits.time_limit, self._stop)
        except SandboxUnavailable:
            raise UploadsUnavailable from None
        except EvaluationStopped:
            raise UploadStopped from None
        if not verdict.accepted or verdict.table is None:
            reason = verdict.reason or "The strategy was refused."
            raise StrategyRefused(reason, verdict.kind, verdict.cpu_seconds)
        tables = tuple(np.asarray(table, dtype=np.int8) for table in verdict.tables)
        return _Checked(
            np.asarray(verdict.table, dtype=np.int8), verdict.cpu_seconds, verdict.team_name, tables
        )

    async def _store(self, new: StoredStrategy, taking: Taking) -> Upload:
        """Insert the new version, retiring the owner's active one of that name, in one transaction, if the
        upload's lease is still this taking's (UploadOvertaken otherwise)."""
        owner, now = new.owner, new.created_at

        async def work(conn: Connection) -> tuple[int, int | None]:
            await taking.confirm(conn)
            current = await self._replaced(conn, new.guild_id, owner, new.name, new.rules)
            await player_table.upsert_players(conn, [owner], now)
            if current is not None:
                await strategy_table.retire_strategy(conn, current.id, now)
            return await strategy_table.insert_strategy(conn, new), None if current is None else current.id

        new_id, old_id = await self._db.write(work)
        strategy = await self._load(new_id, with_table=True)
        replaced = None if old_id is None else await self._load(old_id)
        twin = await strategy_table.same_table(
            self._db, strategy.rules, strategy.table_hash, new.guild_id, new_id
        )
        return Upload(strategy, replaced, twin)

    async def _load(self, strategy_id: int, with_table: bool = False) -> StoredStrategy:
        strategy = await strategy_table.get_strategy(self._db, strategy_id, with_table)
        if strategy is None:
            raise StrategyNotFound
        return strategy

    async def active(
        self, guild_id: int, owner_id: int | None = None, rules: str | None = None
    ) -> list[StoredStrategy]:
        """A server's active strategies (of one owner, of one rule set), oldest first, without tables."""
        rules = None if rules is None else get_rules(rules).id
        return await strategy_table.active_strategies(self._db, guild_id, rules, owner_id)

    async def show(self, guild_id: int, name: str) -> StoredStrategy:
        """The active strategy of that name, with its table; StrategyNotFound if there is none."""
        strategy = await strategy_table.active_by_name(self._db, guild_id, name.strip(), with_table=True)
        if strategy is None:
            raise NoStrategyCalled(name)
        return strategy

    async def history(self, guild_id: int, name: str) -> list[StoredStrategy]:
        """Every version of a name on this server, oldest first (the active one last)."""
        return await strategy_table.versions(self._db, guild_id, name.strip())

    async def deletable(self, guild_id: int, name: str, user_id: int, staff: bool = False) -> StoredStrategy:
        """The strategy of that name if `user_id` may delete it: its owner may, and course staff (`staff`)
        may delete anyone's (NotYourStrategy otherwise)."""
        strategy = await self.show(guild_id, name)
        if strategy.owner.id != user_id and not staff:
            raise NotYourStrategy(strategy.owner.name, strategy.name)
        return strategy

    async def delete(self, guild_id: int, name: str, user_id: int, staff: bool = False) -> StoredStrategy:
        """Delete a strategy and its history, if `user_id` may (see `deletable`)."""
        strategy = await self.deletable(guild_id, name, user_id, staff)

        async def work(conn: Connection) -> int:
            return await strategy_table.delete_strategies(
                conn, await strategy_table.version_ids(conn, guild_id, strategy.name)
            )

        await self._db.write(work)
        return strategy

    async def opponent(
        self, guild_id: int, name: str, rules: str | None = None, owner: Player | None = None
    ) -> StoredStrategy:
        """The strategy to play against in a house-bot game, with its table: under its own rules, which must
        be `rules` if given, and `owner`'s if given (else WrongRules or StrategyNotFound)."""
        strategy = await self.show(guild_id, name)
        if owner is not None and strategy.owner.id != owner.id:
            raise NotTheirStrategy(owner.name, strategy.name, strategy.owner.name)
        if rules is not None and strategy.rules != get_rules(rules).id:
            raise WrongRules(strategy.name, strategy.rules, get_rules(rules).id)
        return strategy

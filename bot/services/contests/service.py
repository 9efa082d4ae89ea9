"""Contests as the course runs them (seeds 000/001/003): course staff open one per server and rule set
with a close time; people enter one stored strategy each, alone or in pairs (by an invitation the other
answers), and see its practice standing; staff see every entry's, and reminders go out a day and an hour
before the close; at the close the entries are frozen and one final tournament runs, once, under the
server's tournament lease (whatever restarts or shard processes do), its results stored before anything
is posted: ranked by wins, then by the exact win rate against always_roll(5), the column every contest
table shows."""

import asyncio
import json
import logging
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial

from bot.domain.contests import (
    Contest,
    ContestStatus,
    Entry,
    Invitation,
    InvitationKey,
    InvitationState,
    Listed,
    Member,
    Practice,
    Result,
    Status,
    placed,
)
from bot.domain.errors import (
    AlreadyEntered,
    AlreadyPaired,
    AlreadyPartners,
    ContestAlreadyOpen,
    ContestClosed,
    InvitationClosed,
    InvitationOvertaken,
    NoContest,
    NoContestYet,
    NoStrategyCalled,
    NotEntered,
    NotYourEntry,
    PartnerBot,
    PartnerYourself,
    RandomEntry,
    TournamentOvertaken,
    TournamentRunning,
    TournamentStopped,
    UnknownFormat,
    WhichContest,
    YouHaveAnEntry,
)
from bot.domain.matches import Player
from bot.domain.shards import Shards
from bot.domain.strategies import StoredStrategy
from bot.services.clock import Clock
from bot.services.contests.final_child import exchanged
from bot.services.contests.gradebook import gradebook
from bot.services.contests.record import unpacked
from bot.services.contests.sharing import share, threads_for_final
from bot.services.contests.staff import CourseStaff
from bot.services.contests.when import close_time
from bot.services.leases import Leases
from bot.services.tournaments.service import FORMATS, TOURNAMENT, Draw
from bot.services.tournaments.stopping import Stop
from bot.storage import Connection, Database
from bot.storage import contests as contest_table
from bot.storage import course as course_table
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage.contests import CONTESTS_LOCK
from hogengine.contest_rules import THRESHOLD, TIE_BREAK_ROLLS
from hogengine.game import MAX_GOAL
from hogengine.rules import get_rules
from hogengine.solver import exact_winrates
from hogengine.solver.threads import THREADS_VARIABLE

log = logging.getLogger(__name__)

BASELINE = f"always_roll({TIE_BREAK_ROLLS})"  # the figure every contest table shows
FINAL_CHILD = "bot.services.contests.final_child"  # the module that computes a final, in a process
REMINDERS = (24, 1)  # hours before the close when a reminder is posted, the earliest first
HOUR = 3600.0


@dataclass(frozen=True, slots=True)
class Final:
    """A closed contest and its entries by place, as posted."""

    contest: Contest
    entries: list[Entry]

    @property
    def placed(self) -> list[Entry]:
        return [entry for entry in self.entries if entry.result is not None]


@dataclass(frozen=True, slots=True)
class Reminder:
    """A reminder to post now: the contest closes in about `hours` hours and has `entries` entries;
    `before` is what was recorded before it (to undo, if it cannot be posted)."""

    contest: Contest
    hours: int
    entries: int
    before: int | None


def _reminded(left: float) -> int | None:
    """The latest reminder whose time has come with `left` seconds to the close (None: none yet): a contest
    opened or found later than a reminder's time never sends it."""
    return min((hours for hours in REMINDERS if left <= hours * HOUR), default=None)


def _key(owner_id: int, name: str) -> tuple[int, str]:
    return owner_id, name.casefold()


def _pair(one: str, other: str) -> tuple[str, str]:
    """Two tables' hashes in the order their practice pair is kept (the first below the second)."""
    return (one, other) if one <= other else (other, one)


def _rate(rates: dict[tuple[str, str], float], one: str, other: str) -> float:
    """One table's exact win rate against another, from the rates kept by pair (see `_pair`)."""
    return rates[(one, other)] if one < other else 1 - rates[(other, one)]


def _baseline(strategy: StoredStrategy) -> float:
    """The strategy's exact win rate against always_roll(5), from the figures stored at its upload."""
    return next(figure.average for figure in strategy.figures if figure.opponent == BASELINE)


def _numbers(count: int, rng: random.Random) -> list[int]:
    """A random number per entry, for anonymity (as the seeds post them): distinct, from 1 to at least 99."""
    return rng.sample(range(1, max(100, 2 * count)), count)


class ContestService:
    """Contests of every server; each final computes in a process of its own (final_child.py), practice
    standings in a worker thread."""

    def __init__(
        self,
        db: Database,
        clock: Clock = time.time,
        seeds: random.Random | None = None,
        *,
        shards: Shards | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._seeds = seeds or random.Random()
        self._shards = shards  # only these shards' servers' contests are closed and posted here
        self._leases = Leases(db, clock)
        self.staff = CourseStaff(db, clock)
        self._practice_pool = ThreadPoolExecutor(1, thread_name_prefix="hog-practice")
        self._stop = Stop()

    def stop(self) -> None:
        """Stop a final tournament computing (the bot is stopping): nothing of it is stored, and the next
        start plays it again."""
        self._stop.set()

    def close(self) -> None:
        """Stop the final computing, then the pools."""
        self.stop()
        self._practice_pool.shutdown(wait=True, cancel_futures=True)

    # Opening and finding contests.

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        opener: Player,
        *,
        rules: str,
        fmt: str,
        closes: str,
        title: str | None = None,
        time_zone: str | None = None,
        ping_role_id: int | None = None,
    ) -> Contest:
        """Open a contest, its announcements and reminders pinging `ping_role_id` if given
        (ContestAlreadyOpen if one of this rule set is open here; BadCloseTime for a close past or beyond
        90 days; UnknownFormat, UnknownRules)."""
        if fmt not in FORMATS:
            raise UnknownFormat(fmt, FORMATS)
        ruleset = get_rules(rules)
        now = self._clock()
        when = close_time(closes, now, time_zone)
        wanted = Contest(
            0, guild_id, channel_id, ruleset.id, fmt, (title or "").strip()[:100] or None,
            opener.id, now, when, ContestStatus.OPEN,
            ping_role_id=ping_role_id, reminded=_reminded(when - now),
        )  # fmt: skip

        async def work(conn: Connection) -> int:
            await conn.lock(CONTESTS_LOCK)
            if await contest_table.open_contests(conn, guild_id, ruleset.id):
                raise ContestAlreadyOpen(ruleset.id)
            await player_table.upsert_players(conn, [opener], now)
            return await contest_table.insert_contest(conn, wanted)

        return await self.get(await self._db.write(work))

    async def get(self, contest_id: int) -> Contest:
        found = await contest_table.get_contest(self._db, contest_id)
        if found is None:
            raise NoContest
        return found

    async def current(self, guild_id: int, rules: str | None = None) -> Contest:
        """The server's open contest (of this rule set; without one, the only one open), or a refusal."""
        rules = None if rules is None else get_rules(rules).id
        found = await contest_table.open_contests(self._db, guild_id, rules)
        if not found:
            raise NoContest(rules)
        if len(found) > 1:
            raise WhichContest([contest.rules for contest in found])
        return found[0]

    @staticmethod
    def _taking_entries(contest: Contest, now: float) -> None:
        """ContestClosed once the contest's close time has come (its final may not have run yet)."""
        if contest.status is not ContestStatus.OPEN or contest.closes_at <= now:
            raise ContestClosed(contest.rules)

    async def _locked_open(self, conn: Connection, contest_id: int, now: float) -> Contest:
        """The contest as this transaction sees it, under CONTESTS_LOCK, still taking entries at `now` (read
        before the transaction: the clock is the caller's)."""
        await conn.lock(CONTESTS_LOCK)
        contest = await contest_table.get_contest(conn, contest_id)
        if contest is None:
            raise NoContest
        self._taking_entries(contest, now)
        return contest

    # Entries.

    async def enter(self, guild_id: int, person: Player, name: str) -> tuple[Contest, Entry]:
        """Make `name` (the person's or their partner's stored strategy) their entry in the open contest of
        its rule set, replacing what it named before; later uploads of it update the entry until the
        close."""
        strategy = await strategy_table.active_by_name(self._db, guild_id, name.strip(), with_table=True)
        if strategy is None:
            raise NoStrategyCalled(name)
        contest = await self.current(guild_id, strategy.rules)
        if strategy.tables and not get_rules(contest.rules).random_strategies:
            raise RandomEntry(strategy.name, contest.rules)
        now = self._clock()

        async def work(conn: Connection) -> None:
            await self._locked_open(conn, contest.id, now)
            mine = await contest_table.entries(conn, contest.id, person.id)
            members = {member.id for member in mine[0].members} if mine else {person.id}
            if strategy.owner.id not in members:
                raise NotYourEntry(strategy.name, strategy.owner.name)
            await player_table.upsert_players(conn, [person], now)
            lead = mine[0].lead_id if mine else person.id
            if not mine:
                await contest_table.add_entry(conn, contest.id, lead, [person.id], now)
            await contest_table.set_strategy(conn, contest.id, lead, strategy.owner.id, strategy.name)

        await self._db.write(work)
        return contest, await self.entry_of(contest.id, person.id)

    async def entry_of(self, contest_id: int, person_id: int) -> Entry:
        found = await contest_table.entries(self._db, contest_id, person_id)
        if not found:
            raise NotEntered((await self.get(contest_id)).rules)
        return found[0]

    async def invite(
        self,
        where: tuple[int, int],
        inviter: Player,
        invitee: Player,
        invitee_is_bot: bool,
        rules: str | None = None,
    ) -> Contest:
        """Record `inviter`'s invitation of `invitee` to enter with them, made in `where` (server, channel),
        if it may be made (the answer comes by a button; its message is recorded by
        `invitation_posted`)."""
        guild_id, channel_id = where
        if invitee.id == inviter.id:
            raise PartnerYourself
        if invitee_is_bot:
            raise PartnerBot
        contest = await self.current(guild_id, rules)
        now = self._clock()

        async def work(conn: Connection) -> None:
            await self._locked_open(conn, contest.id, now)
            if await contest_table.entries(conn, contest.id, invitee.id):
                raise AlreadyEntered(invitee.name)
            partner = await self._partner(conn, contest.id, inviter.id)
            if partner is not None:
                raise AlreadyPaired(partner.name or "someone")
            await player_table.upsert_players(conn, [inviter, invitee], now)
            key = InvitationKey(contest.id, inviter.id, invitee.id)
            await contest_table.invite(conn, key, guild_id, channel_id, now)

        await self._db.write(work)
        return contest

    async def invitation_posted(self, key: InvitationKey, message_id: int) -> None:
        """Remember the message that shows an invitation (to take its buttons away once it is finished)."""
        await self._db.write(lambda conn: contest_table.set_invitation_message(conn, key, message_id))

    @staticmethod
    async def _partner(conn: Connection | Database, contest_id: int, person_id: int) -> Member | None:
        mine = await contest_table.entries(conn, contest_id, person_id)
        return mine[0].partner_of(person_id) if mine else None

    async def accept(self, contest_id: int, inviter: Player, invitee: Player) -> Entry:
        """The invitee accepted: they join the inviter's entry (made now if the inviter had none); every other
        open invitation of either is void. Each refusal says to the invitee why it cannot be."""
        now = self._clock()

        async def work(conn: Connection) -> None:
            contest = await self._locked_open(conn, contest_id, now)
            theirs = await contest_table.entries(conn, contest.id, invitee.id)
            if theirs and any(member.id == inviter.id for member in theirs[0].members):
                raise AlreadyPartners(inviter.name)
            if theirs:
                raise YouHaveAnEntry(inviter.name)
            partner = await self._partner(conn, contest.id, inviter.id)
            if partner is not None:
                raise InvitationOvertaken(inviter.name, partner.name or "someone")
            key = InvitationKey(contest.id, inviter.id, invitee.id)
            found = await contest_table.invitation(conn, key)  # None: made before invitations were kept
            if found is not None and not await contest_table.answer_invitation(conn, key, True, now):
                raise InvitationClosed
            await player_table.upsert_players(conn, [inviter, invitee], now)
            mine = await contest_table.entries(conn, contest.id, inviter.id)
            if mine:
                await contest_table.add_member(conn, contest.id, mine[0].lead_id, invitee.id)
            else:
                await contest_table.add_entry(conn, contest.id, inviter.id, [inviter.id, invitee.id], now)
            await contest_table.void_invitations(conn, contest.id, [inviter.id, invitee.id])

        await self._db.write(work)
        return await self.entry_of(contest_id, invitee.id)

    async def decline(self, key: InvitationKey) -> None:
        """The invitee declined (InvitationClosed if it was finished already)."""
        now = self._clock()

        async def work(conn: Connection) -> None:
            if not await contest_table.answer_invitation(conn, key, False, now):
                raise InvitationClosed

        await self._db.write(work)

    async def _explained(self, invitation: Invitation) -> Invitation:
        """A void invitation with the pair either side now enters in (none: its contest closed)."""
        if invitation.state is not InvitationState.VOID:
            return invitation
        for person in (invitation.inviter.id, invitation.invitee.id):
            found = await contest_table.entries(self._db, invitation.contest_id, person)
            if found and len(found[0].members) == 2 and found[0].result is None:
                return replace(invitation, partners=found[0].members)
        return invitation

    async def lagging_invitations(self) -> list[Invitation]:
        """The invitations of this process's shards whose message still shows buttons it should not, or
        whose inviter has yet to be told the answer."""
        lagging = await contest_table.lagging_invitations(self._db, self._shards)
        return [await self._explained(found) for found in lagging]

    async def invitation_shown(self, invitation: Invitation) -> None:
        """Remember that an invitation's message shows it as it is (or cannot be shown any more)."""
        await self._db.write(lambda conn: contest_table.set_invitation_shown(conn, invitation.key))

    async def to_tell(self, invitation: Invitation) -> bool:
        """Whether to tell the inviter the answer now: the first to ask takes the telling (so it happens
        once), and it is dropped if the inviter turned their notices off (`/hog notices`)."""
        taken = await self._db.write(lambda conn: contest_table.claim_telling(conn, invitation.key))
        return taken and await contest_table.wants_notices(self._db, invitation.inviter.id)

    async def leave(self, guild_id: int, person: Player, rules: str | None = None) -> Contest:
        """Leave one's entry: a partner keeps it (without the leaver's strategy), a lone entry is gone."""
        contest = await self.current(guild_id, rules)
        now = self._clock()

        async def work(conn: Connection) -> None:
            await self._locked_open(conn, contest.id, now)
            found = await contest_table.entries(conn, contest.id, person.id)
            if not found:
                raise NotEntered(contest.rules)
            entry = found[0]
            partner = entry.partner_of(person.id)
            if partner is None:
                await contest_table.remove_entry(conn, contest.id, entry.lead_id)
                return
            await contest_table.remove_member(conn, contest.id, person.id)
            if entry.lead_id == person.id:
                await contest_table.rekey_entry(conn, contest.id, person.id, partner.id)
            if entry.owner_id == person.id:
                await contest_table.set_strategy(conn, contest.id, partner.id, None, None)

        await self._db.write(work)
        return contest

    async def close_early(self, contest_id: int) -> Contest:
        """Bring an open contest's close to now (its final runs at the next `close_due`); ContestClosed if
        its close has come already."""
        now = self._clock()

        async def work(conn: Connection) -> None:
            await self._locked_open(conn, contest_id, now)
            await contest_table.set_closes_at(conn, contest_id, now)

        await self._db.write(work)
        return await self.get(contest_id)

    # What people see.

    async def status(self, guild_id: int, person_id: int, rules: str | None = None) -> Status:
        """The open contest (else the latest), how many entries, the person's entry and, while open, its
        practice standing against the current field."""
        try:
            contest = await self.current(guild_id, rules)
        except NoContest:
            latest = await contest_table.latest_contest(
                self._db, guild_id, None if rules is None else get_rules(rules).id
            )
            if latest is None:
                raise
            contest = latest
        every = await contest_table.entries(self._db, contest.id)
        mine = next((e for e in every if any(m.id == person_id for m in e.members)), None)
        practice = None
        if mine is not None and contest.status is ContestStatus.OPEN and mine.strategy_name is not None:
            practice = await self.practice(contest, mine, every)
        return Status(contest, len(every), mine, practice)

    async def entries(self, contest_id: int) -> list[Entry]:
        """A contest's entries (by place once closed, else in the order they were made)."""
        return await contest_table.entries(self._db, contest_id)

    async def listing(self, guild_id: int, rules: str | None = None) -> tuple[Contest, list[Listed]]:
        """For staff: the open contest and every entry in it with the strategy it names now and its practice
        standing against the current field (pairs never met before computed, off the event loop)."""
        contest = await self.current(guild_id, rules)
        every = await contest_table.entries(self._db, contest.id)
        current = await self._current_strategies(contest, every, with_table=False)
        practice = await self._practice(contest, every, current, list(current))
        return contest, [
            Listed(
                entry,
                None if entry.lead_id not in current else current[entry.lead_id].name,
                None if entry.lead_id not in current else current[entry.lead_id].team_name,
                practice.get(entry.lead_id),
            )
            for entry in every
        ]

    async def _current_strategies(
        self, contest: Contest, entries: Sequence[Entry], with_table: bool, at: float | None = None
    ) -> dict[int, StoredStrategy]:
        """The version each entry names, active now (or at `at`), by the entry's lead (entries naming none
        are left out)."""
        if at is None:
            active = await strategy_table.active_strategies(
                self._db, contest.guild_id, contest.rules, with_table=with_table
            )
        else:
            active = await strategy_table.active_at(self._db, contest.guild_id, contest.rules, at, with_table)
        by_key = {_key(s.owner.id, s.name): s for s in active}
        named = ((e, e.owner_id, e.strategy_name) for e in entries)
        return {
            entry.lead_id: by_key[_key(owner, name)]
            for entry, owner, name in named
            if owner is not None and name is not None and _key(owner, name) in by_key
        }

    async def practice(self, contest: Contest, entry: Entry, entries: Sequence[Entry]) -> Practice | None:
        """The entry's exact results against every other entry now (None: it names no strategy now)."""
        current = await self._current_strategies(contest, entries, with_table=False)
        return (await self._practice(contest, entries, current, [entry.lead_id])).get(entry.lead_id)

    async def _practice(
        self,
        contest: Contest,
        entries: Sequence[Entry],
        current: dict[int, StoredStrategy],
        leads: Sequence[int],
    ) -> dict[int, Practice]:
        """The practice standing of the entries of these leads (naming a strategy now) against every other
        current entry: pairs of tables met before are read, the others computed (off the event loop, in
        one batch) and kept."""
        mine = sorted({current[lead].table_hash for lead in leads if lead in current})
        field = {s.table_hash for s in current.values()}
        rates = await contest_table.known_rates(self._db, contest.rules, mine)
        missing = sorted({_pair(one, other) for one in mine for other in field if one != other} - set(rates))
        if missing:
            tables = await self._current_strategies(contest, entries, with_table=True)
            by_hash = {s.table_hash: s.table for s in tables.values() if s.table is not None}
            found = await asyncio.get_running_loop().run_in_executor(
                self._practice_pool,
                exact_winrates,
                contest.rules,
                [(by_hash[one], by_hash[other]) for one, other in missing],
                MAX_GOAL,
            )
            computed = {pair: rate.average for pair, rate in zip(missing, found, strict=True)}
            await self._db.write(lambda conn: contest_table.add_pairs(conn, contest.rules, computed))
            rates.update(computed)
        new = set(missing)
        standing = {}
        for lead in (lead for lead in leads if lead in current):
            own = current[lead].table_hash
            others = [s.table_hash for other, s in current.items() if other != lead]
            # A copy of one's own table ties, and a tie loses.
            wins = sum(own != other and _rate(rates, own, other) > THRESHOLD for other in others)
            made = sum(_pair(own, other) in new for other in set(others) - {own})
            standing[lead] = Practice(wins, len(others) - wins, _baseline(current[lead]), made)
        return standing

    async def final(self, guild_id: int, rules: str | None = None) -> Final:
        """The latest closed contest of the server (of one rule set) with its entries by place."""
        rules = None if rules is None else get_rules(rules).id
        contest = await contest_table.latest_closed(self._db, guild_id, rules)
        if contest is None:
            raise NoContestYet
        return Final(contest, await contest_table.entries(self._db, contest.id))

    async def export_gradebook(self, final: Final) -> str:
        """A closed contest's gradebook for staff: one row per student, by place, with the course ids they
        linked on the server (see `gradebook`)."""
        people = [member.id for entry in final.placed for member in entry.members]
        linked = await course_table.course_ids(self._db, final.contest.guild_id, people)
        return gradebook(final.placed, linked)

    async def export_record(self, contest_id: int) -> str | None:
        """A closed contest's final as the record `hog tournament --replay` plays again and checks (None
        before the close)."""
        stored = await contest_table.record(self._db, contest_id)
        return None if stored is None else unpacked(stored)

    # The close.

    async def close_due(self) -> list[Contest]:
        """Run the final of every contest of this process's shards whose close has come and store its
        results; the contests this call closed. A final another process holds, or one cut short by a stop,
        is left for a later call."""
        closed = []
        for contest in await contest_table.due(self._db, self._clock(), self._shards):
            try:
                if await self._final(contest):
                    closed.append(contest)
            except TournamentStopped:  # the bot is stopping: its next start plays the final
                break
            except (TournamentRunning, TournamentOvertaken) as error:  # the server's lease is another's
                log.info("the final of contest %s waits: %s", contest.id, error)
            except Exception:  # one contest's failure must not hold up the others: the next call tries again
                log.exception("the final of contest %s failed", contest.id)
        return closed

    async def _final(self, contest: Contest) -> bool:
        """Freeze the entries, play the final and store its results, under the server's tournament lease;
        False if another process closed it meanwhile."""
        async with self._leases.held(TOURNAMENT, contest.guild_id) as taking:
            fresh = await contest_table.get_contest(self._db, contest.id)
            if fresh is None or fresh.status is not ContestStatus.OPEN:
                return False
            entries = await contest_table.entries(self._db, contest.id)
            # Frozen at the close: an upload after it (the final may run a little later) changes nothing.
            frozen = await self._current_strategies(contest, entries, with_table=True, at=fresh.closes_at)
            playing = [entry for entry in entries if entry.lead_id in frozen]
            numbers = dict(
                zip((e.lead_id for e in playing), _numbers(len(playing), self._seeds), strict=True)
            )
            order = sorted(playing, key=lambda e: numbers[e.lead_id])
            entrants = {str(numbers[e.lead_id]): frozen[e.lead_id] for e in order}
            seed = None if contest.format == "exact" else f"{self._seeds.getrandbits(64):016x}"
            draw = Draw(
                contest.guild_id,
                contest.rules,
                contest.format,
                MAX_GOAL,
                seed,
                entrants,
                contest.channel_id,
                taking,
            )
            rows, text = await self._play(draw)
            lead_of = {number: lead for lead, number in numbers.items()}
            unplaced = [
                Result(number, 0, *rows[str(number)], _baseline(frozen[lead]))
                for lead, number in numbers.items()
            ]
            stored = [
                (lead_of[r.number], r, frozen[lead_of[r.number]].id, frozen[lead_of[r.number]].team_name)
                for r in placed(unplaced)
            ]
            now = self._clock()

            async def work(conn: Connection) -> bool:
                await taking.confirm(conn)
                await conn.lock(CONTESTS_LOCK)
                return await contest_table.close(
                    conn, contest.id, closed_at=now, seed=seed, stored_record=text, results=stored
                )

            return await self._db.write(work)

    async def _play(self, draw: Draw) -> tuple[dict[str, tuple[int, int]], str]:
        """The final played in a process of its own (final_child.py): each entry's wins and losses, by
        name, and the final's record as stored. A stop ends the process: nothing of it is kept."""
        entries = [
            (name, list(entrant.tables or ([] if entrant.table is None else [entrant.table])))
            for name, entrant in draw.entrants.items()
        ]
        header = {"rules": draw.rules, "goal": draw.goal, "seed": draw.seed, "entries": [
            [name, len(tables)] for name, tables in entries
        ]}  # fmt: skip
        threads = await threads_for_final()
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", FINAL_CHILD,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            process_group=0,  # away from a terminal's Ctrl-C, in the bot's scheduling group (sharing.py)
            env={**os.environ, THREADS_VARIABLE: str(threads)},
        )  # fmt: skip
        sharing = share(child.pid, threads)
        try:
            out, err = await self._stop.awaiting(asyncio.ensure_future(exchanged(child, header, entries)))
        finally:
            sharing.cancel()
            if child.returncode is None:  # stopped, or cancelled: it computes for nobody
                child.kill()
                await child.wait()
        if child.returncode != 0:
            raise RuntimeError(f"the final's process failed ({child.returncode}): {err.decode()[-2000:]}")
        rows = out.index(b"\n")  # the record's text is decoded from the output itself: it is large
        standings = {name: (wins, losses) for name, wins, losses in json.loads(out[:rows])}
        return standings, str(memoryview(out)[rows + 1 :], "ascii")

    async def unposted(self) -> list[Final]:
        """The closed contests of this process's shards whose results were never posted."""
        found = await contest_table.unposted(self._db, self._shards)
        return [Final(contest, await contest_table.entries(self._db, contest.id)) for contest in found]

    async def posted(self, contest_id: int, message_id: int | None) -> None:
        """Remember that the contest's results were posted, as message `message_id` (None: they cannot be,
        their channel is gone)."""
        await self._db.write(lambda conn: contest_table.set_posted(conn, contest_id, message_id))

    # Reminders.

    async def reminders_due(self) -> list[Reminder]:
        """The reminders to post now in the contests of this process's shards: the latest one whose time has
        come, once (recorded as sent here, so no other process or restart posts it again), an earlier one
        never once a later one's time has come."""
        now = self._clock()
        due = []
        for contest in await contest_table.reminding(self._db, now, REMINDERS[0] * HOUR, self._shards):
            hours = _reminded(contest.closes_at - now)
            if hours is None:
                continue
            claim = partial(contest_table.claim_reminder, contest_id=contest.id, hours=hours)
            if await self._db.write(claim):
                count = len(await contest_table.entries(self._db, contest.id))
                due.append(Reminder(contest, hours, count, contest.reminded))
        return due

    async def unsent(self, reminder: Reminder) -> None:
        """A reminder could not be posted: the next tick tries again."""
        contest = reminder.contest
        await self._db.write(
            lambda conn: contest_table.unclaim_reminder(conn, contest.id, reminder.hours, reminder.before)
        )

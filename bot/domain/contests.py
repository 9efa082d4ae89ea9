"""A course-style contest of one server under one rule set: its entries (one person or a pair each), and
what each entry got at the close."""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

from bot.domain.tournaments import shared_places


class ContestStatus(StrEnum):
    OPEN = "open"  # taking entries until `closes_at`
    CLOSED = "closed"  # entries frozen, the final tournament played and its results stored


@dataclass(frozen=True, slots=True)
class Contest:
    """A contest: where and under which rules, in which format, until when; once closed, the seed of a
    sampled final and whether its results were posted."""

    id: int
    guild_id: int
    channel_id: int  # where it was opened: its results are posted there
    rules: str
    format: str  # "exact" or "sampled"
    title: str | None
    opened_by: int | None
    opened_at: float
    closes_at: float
    status: ContestStatus
    seed: str | None = None
    closed_at: float | None = None
    posted: bool = False
    ping_role_id: int | None = None  # the role its announcements and reminders ping (None: nobody)
    reminded: int | None = None  # hours before the close of the latest reminder sent (or past), 24 then 1
    results_message_id: int | None = None  # the post of its results, once posted


@dataclass(frozen=True, slots=True)
class Member:
    """A person of an entry (the name is None once they were forgotten)."""

    id: int
    name: str | None


@dataclass(frozen=True, slots=True)
class Result:
    """What an entry got at the close: its random number, place (shared by entries equal on wins and on
    the tie-break), wins, losses, and the tie-break: its exact win rate against always_roll(5)."""

    number: int
    place: int
    wins: int
    losses: int
    baseline: float

    @property
    def extra_credit(self) -> int:
        """The extra credit the seeds give the top three places: 3, 2 and 1 points (a shared place gets
        that place's)."""
        return max(0, 4 - self.place)


def placed(results: Sequence[Result]) -> list[Result]:
    """The results in contest order, each given its place: most wins first, ties broken by the exact win
    rate against always_roll(5) (the column every contest table shows), the same wins and rate sharing a
    place; entry numbers order the entries that share one."""
    order = sorted(results, key=lambda result: (-result.wins, -result.baseline, result.number))
    places = shared_places([(result.wins, result.baseline) for result in order])
    return [replace(result, place=place) for result, place in zip(order, places, strict=True)]


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry: its members (one or two, the one who made it first), the strategy it names by owner and
    name (None until one is picked), the team name of the version frozen at the close, and its result."""

    contest_id: int
    lead_id: int
    members: tuple[Member, ...]
    owner_id: int | None
    strategy_name: str | None
    team_name: str | None = None
    result: Result | None = None
    entered_at: float | None = None  # None: made before entries remembered it

    def partner_of(self, person_id: int) -> Member | None:
        """The other member of a pair, if any."""
        return next((member for member in self.members if member.id != person_id), None)


@dataclass(frozen=True, slots=True)
class Practice:
    """An entry's exact results against the current field: wins and losses (a win for a rate above
    50.0001%, as the exact format counts them) and its win rate against always_roll(5)."""

    wins: int
    losses: int
    baseline: float
    computed: int  # pairs computed for this answer (the rest were known)


@dataclass(frozen=True, slots=True)
class Status:
    """What `/hog contest status` shows one person: the contest, how many entries it has, theirs (if any)
    with its practice standing while open."""

    contest: Contest
    entries: int
    entry: Entry | None
    practice: Practice | None


@dataclass(frozen=True, slots=True)
class Listed:
    """One entry as staff see it before the close: the entry, the version of the strategy it names now
    (None: none yet, or gone), its team name, and its practice standing against the current field."""

    entry: Entry
    strategy_name: str | None
    team_name: str | None
    practice: Practice | None


class InvitationState(StrEnum):
    OPEN = "open"  # its buttons work
    ACCEPTED = "accepted"
    DECLINED = "declined"
    VOID = "void"  # overtaken: either side now enters with someone else, or the contest closed


class InvitationKey(NamedTuple):
    """Which invitation: of which contest, from whom, to whom (one at a time between two people)."""

    contest_id: int
    inviter_id: int
    invitee_id: int


@dataclass(frozen=True, slots=True)
class Invitation:
    """A partner invitation and the message that shows it; `to_tell`: its inviter has yet to be told the
    answer; `shown`: its message shows its state (a finished one without buttons)."""

    contest_id: int
    inviter: Member
    invitee: Member
    guild_id: int
    channel_id: int
    message_id: int | None
    state: InvitationState
    shown: bool
    to_tell: bool
    partners: tuple[Member, ...] = ()  # a void invitation's reason: the pair either side entered with

    @property
    def key(self) -> InvitationKey:
        return InvitationKey(self.contest_id, self.inviter.id, self.invitee.id)

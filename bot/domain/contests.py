"""A course-style contest of one server under one rule set: its entries (one person or a pair each), and
what each entry got at the close."""

from dataclasses import dataclass
from enum import StrEnum


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


@dataclass(frozen=True, slots=True)
class Member:
    """A person of an entry (the name is None once they were forgotten)."""

    id: int
    name: str | None


@dataclass(frozen=True, slots=True)
class Result:
    """What an entry got at the close: its random number, place, wins, losses, the tie-break of its format
    and its exact win rate against always_roll(5)."""

    number: int
    place: int
    wins: int
    losses: int
    tiebreak: float
    baseline: float


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

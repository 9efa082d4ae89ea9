"""A finished tournament of a server's strategies and its places, and how a table of places is ranked and
shown: by what it shows."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal

from hogengine.text import percent

MAX_DECIMALS = 1080  # a float's exact value has at most 1,074 decimals: two different ones read apart by then
_EXACT = Context(prec=1100)  # a float's every digit, times 100


@dataclass(frozen=True, slots=True)
class Standing:
    """One place of a tournament (the strategy id is None once the strategy was deleted)."""

    place: int
    name: str
    owner_id: int | None
    owner_name: str | None  # None once the owner was forgotten
    strategy_id: int | None
    points: float  # match points (exact) or games won (sampled)
    tiebreak: float  # the exact win rate that breaks ties


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pairing of a tournament, by the two places: each side's result, an exact average win rate
    (exact) or its games won (sampled)."""

    a_place: int
    b_place: int
    a_result: float
    b_result: float


@dataclass(frozen=True, slots=True)
class Tournament:
    """A finished tournament of a server's strategies under one rule set, and its standings."""

    id: int
    guild_id: int
    rules: str
    goal: int
    format: str  # "exact" or "sampled"
    seed: str | None  # a sampled tournament's dice: `hog tournament --format sampled --seed` replays them
    started_by: int | None
    created_at: float
    finished_at: float
    standings: tuple[Standing, ...]
    channel_id: int | None = None  # where it was started and its standings are shown (None: stored before)
    pairings: tuple[Pairing, ...] = ()  # every pairing (none for tournaments stored before they were kept)


def shared_places(keys: Sequence[tuple[float, float]]) -> list[int]:
    """The places of rows already in their order, by what ranks them (wins, then the tie-break): a row equal
    to the one before on both shares its place, and the next row's place counts every row above it
    (1, 2, 2, 4)."""
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


def as_percent(rate: float, decimals: int) -> str:
    """A rate as a percentage to `decimals` decimals: to one as `hogengine.text.percent` shows every rate,
    to more from the rate's exact value (the float's `%` would multiply by 100 first, and could make two
    rates a few units in the last place apart read alike at any length)."""
    if decimals == 1:
        return percent(rate)
    return f"{_EXACT.multiply(Decimal(rate), 100):.{decimals}f}%"


def as_fraction(rate: float, decimals: int) -> str:
    """A rate as a fraction to `decimals` decimals, as a spreadsheet reads a number."""
    return f"{Decimal(rate):.{decimals}f}"


def tie_breaks_shown(
    rows: Sequence[tuple[float, float]], least: int = 1, written: Callable[[float, int], str] = as_percent
) -> list[str]:
    """Each row's tie-break (the second of its (wins, tie-break)) as a table shows it: `written` to `least`
    decimals, or to more where it would read the same as a neighbour's with the same wins but a different
    value, so that the table shows the digits that decide every place it gives."""
    decimals = [least] * len(rows)
    for index in range(1, len(rows)):
        (wins, rate), (before_wins, before) = rows[index], rows[index - 1]
        if wins != before_wins or rate == before:
            continue
        needed = least
        while needed < MAX_DECIMALS and written(rate, needed) == written(before, needed):
            needed += 1
        decimals[index] = max(decimals[index], needed)
        decimals[index - 1] = max(decimals[index - 1], needed)
    for index in range(len(rows) - 1, 0, -1):  # rows that share a place read alike
        if rows[index] == rows[index - 1]:
            decimals[index - 1] = decimals[index] = max(decimals[index - 1], decimals[index])
    for index in range(1, len(rows)):
        if rows[index] == rows[index - 1]:
            decimals[index] = decimals[index - 1]
    return [written(rate, places) for (_, rate), places in zip(rows, decimals, strict=True)]

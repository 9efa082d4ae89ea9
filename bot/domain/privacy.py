"""What forget-me did."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forget-me did."""

    strategies_deleted: int
    matches_anonymised: int

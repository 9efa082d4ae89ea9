"""A position seen from the player to move: what every rule reads, as ints or as arrays of states."""

from typing import NamedTuple

from hogengine.numeric import Num


class Position(NamedTuple):
    """Scores and hidden parts, mover first; fields are ints in live play, arrays in the solver."""

    mover: Num
    opponent: Num
    chop_mover: Num = 0  # 1 once the mover has spent their Pork Chop
    chop_opponent: Num = 0
    streak_mover: Num = 0  # the mover's consecutive Pig Outs (Pig Fest)
    streak_opponent: Num = 0
    exchanges: Num = 0  # Ham Hijinks exchanges so far, shared by both players

    def flipped(self) -> "Position":
        """The same position seen from the other player."""
        return Position(
            self.opponent,
            self.mover,
            self.chop_opponent,
            self.chop_mover,
            self.streak_opponent,
            self.streak_mover,
            self.exchanges,
        )

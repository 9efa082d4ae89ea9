"""`swine-align`: CS 61A Fall 2020 (seed 004): pi Free Bacon, Swine Align and Pig Pass extra turns."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from hogengine.events import EventKind
from hogengine.position import Position
from hogengine.rules import pieces
from hogengine.rules.base import RuleSet, Step, game_over

if TYPE_CHECKING:  # numpy's types: the rules import without numpy (see pieces.py)
    from hogengine.numeric import Flag, Num

# The value of an EXTRA_TURN event names its rule (they never fire together).
EXTRA_TURN_RULES = {1: "swine_align", 2: "pig_pass"}


class SwineAlign(RuleSet):
    """Six-sided dice only; a Pig Out scores 1; extra turns chain without limit."""

    id = "swine-align"
    aliases: ClassVar[tuple[str, ...]] = ("fa20",)
    title = "Swine Align / Pig Pass (CS 61A Fall 2020)"
    choices = range(0, 11)
    rule_lines = (
        "Six-sided dice only. A Pig Out scores 1.",
        "**Free Bacon** (0 dice): 3 + the n-th digit of pi after the point, n = your opponent's score.",
        "**Swine Align**: if both scores are positive and share a factor of 10 or more, go again.",
        "**Pig Pass**: if you end a turn 1 or 2 points behind, go again.",
    )

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        return choice, 6

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return 1

    def free_bacon(self, opponent: Num) -> Num:
        return pieces.free_bacon_pi(opponent)

    def event_note(self, kind: EventKind, value: int) -> str:
        return EXTRA_TURN_RULES.get(value, "") if kind is EventKind.EXTRA_TURN else ""

    def score(self, position: Position, choice: Num, base: Num, pig_out: Flag, goal: int) -> Step:
        after = position._replace(mover=position.mover + base)
        align = pieces.swine_align(after.mover, after.opponent)
        passed = pieces.pig_pass(after.mover, after.opponent)
        extra = (align | passed) & pieces.negate(game_over(after, goal))
        return Step(
            after,
            base,
            extra,
            fired={EventKind.EXTRA_TURN: extra},
            values={EventKind.EXTRA_TURN: pieces.where(align, 1, 2)},
        )

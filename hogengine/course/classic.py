"""The project API of CS 61A's Hog from 2015 to 2017, which each of those semesters' modules binds to the
course's names for its rule set: Hog Wild's `select_dice`, `is_swap`, a `play` of five arguments, and
`num_samples`. The engine plays every rule (nothing here re-implements one). Like the course's functions,
these look up the names the course's tests and GUI replace (`four_sided`, `six_sided`, `play`, `take_turn`)
in the semester's module when they are called.
"""

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, ParamSpec, cast

import hogengine.course as fall2020
from hogengine.course import dice, ucb
from hogengine.course.dice import Dice, six_sided
from hogengine.course.games import play_game, whole
from hogengine.events import EventKind
from hogengine.game import State, resolve_rolled
from hogengine.numeric import Flag
from hogengine.rules import get_rules
from hogengine.strategies import Strategy, always_roll

P = ParamSpec("P")
GOAL_SCORE = 100  # The goal of Hog is to score 100 points.
NO_MARGIN = 1000  # a margin no Free Bacon reaches: Spring 2016's swap_strategy has none
# The functions every semester's hog.py of these years had (a few of them written by its students: see
# each module), and what its first lines imported from the course's dice.py and ucb.py.
FUNCTIONS = (
    "roll_dice",
    "free_bacon",
    "take_turn",
    "select_dice",
    "is_swap",
    "other",
    "play",
    "make_averaged",
    "max_scoring_num_rolls",
    "winner",
    "average_win_rate",
    "run_experiments",
    "bacon_strategy",
    "swap_strategy",
    "final_strategy",
)
IMPORTED = {
    "four_sided": dice.four_sided,
    "six_sided": dice.six_sided,
    "make_test_dice": dice.make_test_dice,
    "main": ucb.main,
    "trace": ucb.trace,
    "log_current_line": ucb.log_current_line,
    "interact": ucb.interact,
}


class Classic:
    """The API of one semester from 2015 to 2017: `module` the module that binds these methods to the
    course's names, named after the semester (the alias its rule set is known by: `hogengine.course.sp17`
    plays `sp17`), `num_rolls` the dice its strategies roll by default, `baseline`
    those of the `always_roll` its `average_win_rate` plays against, `negative` its take_turn's message
    for fewer than 0 dice, `swap` the engine's piece behind its `is_swap`, `harmful` whether its
    `swap_strategy` rolls dice rather than swap its lead away."""

    def __init__(
        self,
        module: str,
        *,
        num_rolls: int,
        baseline: int,
        negative: str,
        swap: Callable[[int, int], Flag],
        harmful: bool,
    ) -> None:
        self.rules = get_rules(module.rsplit(".", 1)[-1])
        self._module = module
        self._num_rolls, self._baseline, self._negative = num_rolls, baseline, negative
        self._swap, self._harmful = swap, harmful

    def bind(self, namespace: dict[str, Any], *extra: str) -> None:
        """Give the semester's module (its `namespace`) the course's names: FUNCTIONS and `extra` of these
        methods (but those the module defines itself), GOAL_SCORE, always_roll and what its hog.py imported.
        They are its only public names, so `from hog import *` gives them as the course's file did (it had
        no `__all__` either)."""
        own = {name: getattr(self, name) for name in (*FUNCTIONS, *extra) if name not in namespace}
        namespace.update(own, GOAL_SCORE=GOAL_SCORE, always_roll=always_roll, **IMPORTED)

    @property
    def course(self) -> ModuleType:
        """The semester's module, whose names the course's tests and GUI may have replaced."""
        return sys.modules[self._module]

    def _named(self, name: str) -> Callable[..., object]:
        return cast("Callable[..., object]", getattr(self.course, name))

    # Phase 1: Simulator

    def roll_dice(self, num_rolls: int, dice: Dice = six_sided) -> int:
        """Roll the dice exactly `num_rolls` > 0 times and return the points: their sum, or what a Pig Out
        scores under the rules."""
        return fall2020.roll_dice(num_rolls, dice, rules=self.rules.id)

    def free_bacon(self, opponent_score: int) -> int:
        """The points for rolling 0 dice (Free Bacon) against `opponent_score`, before any boost."""
        return int(self.rules.free_bacon(whole(opponent_score)))

    def take_turn(self, num_rolls: int, opponent_score: int, dice: Dice = six_sided) -> int:
        """The points of a turn rolling `num_rolls` dice, which may be 0 (Free Bacon), with every boost the
        rules give a turn (Hogtimus Prime where they have it)."""
        assert type(num_rolls) is int, "num_rolls must be an integer."
        assert num_rolls >= 0, self._negative
        assert num_rolls <= 10, "Cannot roll more than 10 dice."
        assert opponent_score < 100, "The game should be over."
        state = State(self.rules.id, GOAL_SCORE, (0, whole(opponent_score)))
        return resolve_rolled(state, num_rolls, [dice() for _ in range(num_rolls)]).points

    def select_dice(self, score: int, opponent_score: int) -> Dice:
        """The module's `four_sided` when Hog Wild makes the dice four-sided here, else its `six_sided`."""
        wild = self.rules.hog_wild(self.rules.start_position(whole(score), whole(opponent_score)))
        return cast("Dice", getattr(self.course, "four_sided" if wild else "six_sided"))

    def is_swap(self, score0: int, score1: int) -> bool:
        """Whether a turn ending with these scores swaps them (Swine Swap)."""
        return bool(self._swap(whole(score0), whole(score1)))

    @staticmethod
    def other(who: int) -> int:
        """The other player, for a player `who` numbered 0 or 1."""
        return 1 - who

    def play(
        self,
        strategy0: Strategy,
        strategy1: Strategy,
        score0: int = 0,
        score1: int = 0,
        goal: int = GOAL_SCORE,
    ) -> tuple[int, int]:
        """Play a game and return both final scores, Player 0's first; each turn rolls the module's
        `four_sided` or `six_sided`, whichever the rules call for."""
        state = State(self.rules.id, whole(goal), (whole(score0), whole(score1)))

        def roll(state: State, sides: int) -> Dice:
            return cast("Dice", getattr(self.course, "four_sided" if sides == 4 else "six_sided"))

        return play_game(state, (strategy0, strategy1), roll, fall2020.silence)

    # Phase 2: Strategies

    def check_strategy_roll(self, score: int, opponent_score: int, num_rolls: object) -> None:
        """Raise an error naming the scores if `num_rolls` is not a choice the rules allow."""
        message = f"strategy({score}, {opponent_score}) returned {num_rolls}"
        assert type(num_rolls) is int, message + " (not an integer)"
        assert num_rolls in self.rules.choices, message + " (invalid number of rolls)"

    def check_strategy(self, strategy: Strategy, goal: int = GOAL_SCORE) -> None:
        """Check `strategy` at every pair of scores below `goal`, raising an error at the first bad answer."""
        for score in range(goal):
            for opponent_score in range(goal):
                self.check_strategy_roll(score, opponent_score, strategy(score, opponent_score))

    @staticmethod
    def make_averaged(fn: Callable[P, float], num_samples: int = 1000) -> Callable[P, float]:
        """A function returning the mean of `num_samples` calls of `fn` on its arguments."""
        return fall2020.make_averaged(fn, num_samples)

    def max_scoring_num_rolls(self, dice: Dice = six_sided, num_samples: int = 1000) -> int:
        """The number of dice, 1 to 10, whose `roll_dice` averages the most; ties go to fewer dice."""
        return fall2020.max_scoring_num_rolls(dice, num_samples, rules=self.rules.id)

    def winner(self, strategy0: Strategy, strategy1: Strategy) -> int:
        """0 if strategy0 wins a game (the module's `play`) against strategy1, and 1 otherwise."""
        score0, score1 = cast("tuple[int, int]", self._named("play")(strategy0, strategy1))
        return 0 if score0 > score1 else 1

    def average_win_rate(self, strategy: Strategy, baseline: Strategy | None = None) -> float:
        """How often `strategy` beats `baseline` (the semester's always_roll), moving first and second."""
        against = baseline or always_roll(self._baseline)
        averaged = fall2020.make_averaged(
            cast("Callable[[Strategy, Strategy], float]", self._named("winner"))
        )
        return (1 - averaged(strategy, against) + averaged(against, strategy)) / 2

    def run_experiments(self) -> None:
        """What the course's `python3 hog.py -r` prints: the number of dice that scores most on average."""
        print("Max scoring num rolls for six-sided dice:", self.max_scoring_num_rolls(six_sided))

    def bacon_strategy(
        self, score: int, opponent_score: int, margin: int = 8, num_rolls: int | None = None
    ) -> int:
        """Roll 0 dice when that scores at least `margin` points, else `num_rolls`."""
        rolls = self._num_rolls if num_rolls is None else num_rolls
        points = cast("int", self._named("take_turn")(0, opponent_score))
        return 0 if points >= margin else rolls

    def swap_strategy(
        self, score: int, opponent_score: int, margin: int = 8, num_rolls: int | None = None
    ) -> int:
        """Roll 0 dice when Free Bacon makes a swap that helps, or scores at least `margin` points (unless,
        where the semester said so, its swap would hurt); else `num_rolls`."""
        rolls = self._num_rolls if num_rolls is None else num_rolls
        turn = resolve_rolled(State(self.rules.id, GOAL_SCORE, (whole(score), whole(opponent_score))), 0, [])
        if any(event.kind is EventKind.SWAP for event in turn.events):
            helps = turn.after.scores[0] > turn.after.scores[1]
            if helps or self._harmful:
                return 0 if helps else rolls
        return 0 if turn.points >= margin else rolls

    def final_strategy(self, score: int, opponent_score: int) -> int:
        """The choice of the best score-only table under the rules (the strongest a contest file can hold)."""
        return fall2020.final_strategy(score, opponent_score, rules=self.rules.id)

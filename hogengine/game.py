"""A live game: the immutable state, and `resolve`, which plays one turn from a choice and its dice."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hogengine.errors import BadRolls, BadState, GameOver, IllegalChoice
from hogengine.events import Event, EventKind
from hogengine.position import Position
from hogengine.rules import DEFAULT_RULES, RuleSet, get_rules
from hogengine.text import is_whole, shown

MAX_GOAL = 100


@dataclass(frozen=True, slots=True)
class State:
    """Everything the rules read: scores, who moves, goal, turn number and every hidden part."""

    rules: str = DEFAULT_RULES
    goal: int = MAX_GOAL
    scores: tuple[int, int] = (0, 0)
    mover: int = 0
    chop_used: tuple[bool, bool] = (False, False)  # Pork Chop spent, per player
    streaks: tuple[int, int] = (0, 0)  # consecutive Pig Outs, per player (Pig Fest)
    exchanges: int = 0  # Ham Hijinks exchanges so far, shared
    turn: int = 0  # turns played so far, extra turns included

    @property
    def ruleset(self) -> RuleSet:
        return get_rules(self.rules)

    @property
    def over(self) -> bool:
        return max(self.scores) >= self.goal

    @property
    def winner(self) -> int | None:
        """The player holding a score at or above the goal, once the game is over."""
        if not self.over:
            return None
        return 0 if self.scores[0] >= self.goal else 1

    def position(self) -> Position:
        """This state seen from the player to move."""
        me, you = self.mover, 1 - self.mover
        return Position(
            self.scores[me],
            self.scores[you],
            int(self.chop_used[me]),
            int(self.chop_used[you]),
            self.streaks[me],
            self.streaks[you],
            self.exchanges,
        )


def new_game(
    rules: str = DEFAULT_RULES, goal: int = MAX_GOAL, scores: tuple[int, int] = (0, 0), mover: int = 0
) -> State:
    """A game at its start, checked: goal 1..100, scores below the goal, mover 0 or 1."""
    ruleset = get_rules(rules)
    if not is_whole(goal) or not 1 <= goal <= MAX_GOAL:
        raise BadState(f"The goal must be a whole number from 1 to {MAX_GOAL}.")
    if any(not is_whole(score) or not 0 <= score < goal for score in scores):
        raise BadState(f"Starting scores must be whole numbers from 0 to {goal - 1}.")
    if not is_whole(mover) or mover not in (0, 1):
        raise BadState("The player to move must be 0 or 1.")
    return State(ruleset.id, goal, (scores[0], scores[1]), mover)


def legal_choices(state: State) -> range:
    """Every choice the rules allow the player to move."""
    return state.ruleset.choices


def choice_label(state: State, choice: int) -> str:
    """How a choice reads on a button for the player to move in this state: what it does for them now."""
    return state.ruleset.label_at(state.position(), choice)


def dice_rules(state: State) -> tuple[EventKind, ...]:
    """The rules that set the dice of the player to move now (Hog Wild, Ham Hijinks), for boards to explain;
    each swaps six-sided dice for four-sided or back, so an odd number of them means four sides."""
    return state.ruleset.dice_rules(state.position())


SIDES = {4: "four-sided", 6: "six-sided"}
# Why the dice are what they are, in words, for each rule dice_rules can name.
_DICE_REASONS: dict[EventKind, Callable[[State], str]] = {
    EventKind.HOG_WILD: lambda state: (
        f"Hog Wild: {state.scores[0]} + {state.scores[1]} = {sum(state.scores)} is a multiple of 7"
    ),
    EventKind.HAM_HIJINKS: lambda state: f"the dice were exchanged {state.exchanges} time(s), an odd number",
}


def dice_in_words(state: State) -> str:
    """The dice a roll uses now and, in words, each rule that set them: for boards and terminals."""
    reasons = [_DICE_REASONS[rule](state) for rule in dice_rules(state)]
    return f"{SIDES[dice_for(state, 1)[1]]} dice" + (f" ({'; '.join(reasons)})" if reasons else "")


def dice_for(state: State, choice: int) -> tuple[int, int]:
    """How many dice of how many sides this choice rolls now; raises if the turn cannot be taken."""
    if state.over:
        raise GameOver("The game is over: no more turns.")
    ruleset = state.ruleset
    if not is_whole(choice) or choice not in ruleset.choices:
        low, high = ruleset.choices[0], ruleset.choices[-1]
        raise IllegalChoice(
            f"{shown(choice)} is not a legal choice under {ruleset.id}: choose {low} to {high}."
        )
    count, sides = ruleset.dice(state.position(), choice)
    return int(count), int(sides)


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One played turn: what was chosen and rolled, what it scored, which rules fired, and the new state."""

    before: State
    after: State
    choice: int
    dice: int
    sides: int
    outcomes: tuple[int, ...]
    points: int
    events: tuple[Event, ...]

    @property
    def player(self) -> int:
        return self.before.mover

    def to_json(self) -> dict[str, Any]:
        """One line of `hog replay`'s output (DESIGN.md's replay contract)."""
        return {
            "turn": self.before.turn,
            "player": self.player,
            "choice": self.choice,
            "dice": self.dice,
            "sides": self.sides,
            "rolls": list(self.outcomes),
            "points": self.points,
            "score": list(self.after.scores),
            "next": self.after.mover,
            "over": self.after.over,
            "events": [event.to_json() for event in self.events],
        }


def resolve(state: State, choice: int, outcomes: Sequence[int]) -> TurnResult:
    """Play one turn: `outcomes` must be exactly the dice this choice rolls, each on the die."""
    count, sides = dice_for(state, choice)
    rolls = tuple(outcomes)
    if len(rolls) != count:
        raise BadRolls(f"Choice {choice} rolls {count} dice, but {len(rolls)} outcome(s) were given.")
    for roll in rolls:
        if not is_whole(roll) or not 1 <= roll <= sides:
            raise BadRolls(f"{shown(roll)} is not an outcome of a {sides}-sided die.")
    ruleset = state.ruleset
    pig_out, rolled = ruleset.roll_summary(rolls)
    step = ruleset.step(state.position(), choice, pig_out, rolled, state.goal)
    extra = bool(step.extra)
    me = state.mover
    seen = step.position

    def seats(mine: object, theirs: object) -> tuple[Any, Any]:
        return (mine, theirs) if me == 0 else (theirs, mine)

    score0, score1 = seats(seen.mover, seen.opponent)
    chop0, chop1 = seats(seen.chop_mover, seen.chop_opponent)
    streak0, streak1 = seats(seen.streak_mover, seen.streak_opponent)
    after = replace(
        state,
        scores=(int(score0), int(score1)),
        chop_used=(bool(chop0), bool(chop1)),
        streaks=(int(streak0), int(streak1)),
        exchanges=int(seen.exchanges),
        mover=me if extra else 1 - me,
        turn=state.turn + 1,
    )
    events = [
        Event(
            kind, me, int(step.values.get(kind, 0)), ruleset.event_note(kind, int(step.values.get(kind, 0)))
        )
        for kind, fired in step.fired.items()
        if fired
    ]
    if after.over:
        events.append(Event(EventKind.GAME_OVER, me, after.winner if after.winner is not None else me))
    return TurnResult(state, after, choice, count, sides, rolls, int(step.points), tuple(events))

"""A live game: the immutable state, and `resolve`, which plays one turn from a choice and its dice."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hogengine.dice import seeded_rolls
from hogengine.errors import BadRolls, BadState, GameOver, IllegalChoice
from hogengine.events import Event, EventKind
from hogengine.numeric import Num
from hogengine.position import Position
from hogengine.rules import DEFAULT_RULES, HiddenPart, RuleSet, get_rules
from hogengine.text import counted, is_whole, shown

MAX_GOAL = 100


# The values of the hidden parts a rule set declares: seat 0's and seat 1's own, then those both share.
Hidden = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
HiddenValues = Mapping[str, int | Sequence[int]]


@dataclass(frozen=True, slots=True)
class State:
    """Everything the rules read: scores, who moves, goal, turn number and the rule set's hidden parts."""

    rules: str = DEFAULT_RULES
    goal: int = MAX_GOAL
    scores: tuple[int, int] = (0, 0)
    mover: int = 0
    hidden: Hidden = ((), (), ())  # left empty: every part at its first value
    turn: int = 0

    def __post_init__(self) -> None:
        if self.hidden == ((), (), ()) and self.ruleset.hidden_parts:
            start = self.ruleset.start_position(0, 0)
            object.__setattr__(self, "hidden", (start.mine, start.theirs, start.shared))

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
        me = self.mover
        return Position(
            self.scores[me], self.scores[1 - me], self.hidden[me], self.hidden[1 - me], self.hidden[2]
        )

    def hidden_value(self, part: HiddenPart, seat: int | None) -> int:
        """One hidden part's value: a seat's own (`seat`), or the shared one (None)."""
        same_kind = [each for each in self.ruleset.hidden_parts if each.per_seat == part.per_seat]
        return self.hidden[2 if seat is None else seat][same_kind.index(part)]

    def hidden_by_name(self) -> dict[str, int | tuple[int, int]]:
        """The hidden parts by name, a pair per seat or one shared number: how records and storage keep
        them, so a new rule set needs no new field or column."""
        return {
            part.name: (self.hidden_value(part, 0), self.hidden_value(part, 1))
            if part.per_seat
            else self.hidden_value(part, None)
            for part in self.ruleset.hidden_parts
        }

    def with_hidden(self, values: HiddenValues) -> "State":
        """This state with hidden parts set by name (as `hidden_by_name` gives them), each checked against
        its declared values; parts not named keep theirs."""
        parts = self.ruleset.hidden_parts
        unknown = set(values) - {part.name for part in parts}
        if unknown:
            raise BadState(f"{self.ruleset.id} has no hidden part {shown(sorted(unknown)[0])}.")
        seats: list[list[int]] = [list(self.hidden[0]), list(self.hidden[1]), list(self.hidden[2])]
        for kind in (True, False):
            for index, part in enumerate(each for each in parts if each.per_seat == kind):
                if part.name in values:
                    for seat, value in zip(
                        (0, 1) if kind else (2,), _hidden_values(part, values[part.name]), strict=True
                    ):
                        seats[seat][index] = value
        return replace(self, hidden=(tuple(seats[0]), tuple(seats[1]), tuple(seats[2])))


def _hidden_values(part: HiddenPart, given: int | Sequence[int]) -> tuple[int, ...]:
    """A part's value(s) as given for it by name, checked: a pair per seat, or one shared number."""
    values: tuple[object, ...] = tuple(given) if isinstance(given, Sequence) else (given,)
    checked = tuple(value for value in values if is_whole(value) and value in part.values)
    if len(checked) != len(values) or len(values) != (2 if part.per_seat else 1):
        low, high = part.values[0], part.values[-1]
        each = "a pair of whole numbers" if part.per_seat else "a whole number"
        raise BadState(f"Hidden part {part.name} must be {each} from {low} to {high}, not {shown(given)}.")
    return checked


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


def distinct_choices(state: State) -> list[int]:
    """The legal choices that each do something different now: a choice that plays exactly as another
    (a spent Pork Chop's -1 is Roll 10) is left out, so buttons and hints offer each action once."""
    position = state.position()
    return [choice for choice in legal_choices(state) if state.ruleset.plays_as(position, choice) is None]


def choice_label(state: State, choice: int) -> str:
    """How a choice reads on a button for the player to move in this state: what it does for them now."""
    return state.ruleset.label_at(state.position(), choice)


def dice_rules(state: State) -> tuple[EventKind, ...]:
    """The rules that set the dice of the player to move now (Hog Wild, Ham Hijinks), for boards to explain;
    each swaps six-sided dice for four-sided or back, so an odd number of them means four sides."""
    return state.ruleset.dice_rules(state.position())


SIDES = {4: "four-sided", 6: "six-sided"}


def dice_words(count: int, sides: int) -> str:
    """A roll's dice in words: "1 six-sided die", "3 four-sided dice"."""
    return counted(count, f"{SIDES[sides]} die", f"{SIDES[sides]} dice")


def dice_in_words(state: State) -> str:
    """The dice a roll uses now and, in words, each rule that set them: for boards and terminals."""
    reasons = [state.ruleset.dice_reason(state, rule) for rule in dice_rules(state)]
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


def turn_number(turn: int) -> int:
    """The number people read for the turn the state counts as `turn` (turns played before it): the first
    turn is turn 1 on boards, analyses, replays and pages alike (records and JSON keep the count)."""
    return turn + 1


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
    rolls, sides = _rolls(state, choice, outcomes)
    for roll in rolls:
        if roll > sides:
            raise BadRolls(f"{shown(roll)} is not an outcome of a {sides}-sided die.")
    return _resolved(state, choice, rolls, sides)


def resolve_rolled(state: State, choice: int, outcomes: Sequence[int]) -> TurnResult:
    """Play one turn on whatever faces the dice showed, as the course's `play` takes them (its test dice
    may show 7 on a six-sided die); live games and replays use `resolve`, which holds each to its die."""
    rolls, sides = _rolls(state, choice, outcomes)
    return _resolved(state, choice, rolls, sides)


def _rolls(state: State, choice: int, outcomes: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The outcomes, checked to be as many faces (whole numbers from 1) as the choice rolls dice, and
    the sides of those dice."""
    count, sides = dice_for(state, choice)
    rolls = tuple(outcomes)
    if len(rolls) != count:
        given = f"{counted(len(rolls), 'outcome')} {'was' if len(rolls) == 1 else 'were'} given"
        raise BadRolls(f"Choice {choice} rolls {counted(count, 'die', 'dice')}, but {given}.")
    for roll in rolls:
        if not is_whole(roll) or roll < 1:
            raise BadRolls(f"{shown(roll)} is not an outcome of a {sides}-sided die.")
    return rolls, sides


def _resolved(state: State, choice: int, rolls: tuple[int, ...], sides: int) -> TurnResult:
    """The turn these checked rolls make."""
    ruleset = state.ruleset
    pig_out, rolled = ruleset.roll_summary(rolls)
    step = ruleset.step(state.position(), choice, pig_out, rolled, state.goal)
    extra = bool(step.extra)
    me = state.mover
    seen = step.position

    def seats(mine: object, theirs: object) -> tuple[Any, Any]:
        return (mine, theirs) if me == 0 else (theirs, mine)

    score0, score1 = seats(seen.mover, seen.opponent)
    seat0, seat1 = seats(seen.mine, seen.theirs)
    after = replace(
        state,
        scores=(int(score0), int(score1)),
        hidden=(_ints(seat0), _ints(seat1), _ints(seen.shared)),
        mover=me if extra else 1 - me,
        turn=state.turn + 1,
    )
    events = [
        Event(
            kind, me, int(step.values.get(kind, 0)), ruleset.event_note(kind, int(step.values.get(kind, 0)))
        )
        for kind in EventKind  # in the order the rules act
        if step.fired.get(kind, False)
    ]
    if after.over:
        events.append(Event(EventKind.GAME_OVER, me, after.winner if after.winner is not None else me))
    return TurnResult(state, after, choice, len(rolls), sides, rolls, int(step.points), tuple(events))


def resolve_seeded(state: State, choice: int, seed: bytes) -> TurnResult:
    """Play one turn of a live game: the choice's dice are the game's commit-reveal dice (`seed`)."""
    count, sides = dice_for(state, choice)
    return resolve(state, choice, seeded_rolls(seed, state.turn, count, sides))


def _ints(values: Sequence[Num]) -> tuple[int, ...]:
    return tuple(int(value) for value in values)

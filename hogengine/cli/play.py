"""`hog play`: Hog in the terminal, against a friend or a built-in strategy, with dice you can check.

The dice are commit-reveal: the SHA-256 of a secret seed is shown before the first roll, the seed after the
last, with a record that `hog replay` re-plays from the seed alone.
"""

import argparse
import io
import json
import shlex
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from hogengine.analysis import coaching, judge, player_summary, summary
from hogengine.cli.arguments import whole
from hogengine.cli.rules import plain
from hogengine.cli.solved import cache_dir
from hogengine.cli.specs import HELP, PLAYERS, load_table
from hogengine.cli.turns import final_line, seat_names, status_line, turn_lines
from hogengine.commentary import game_commentary
from hogengine.dice import commitment, new_seed
from hogengine.errors import HogError
from hogengine.game import (
    MAX_GOAL,
    State,
    TurnResult,
    choice_label,
    legal_choices,
    new_game,
    resolve_seeded,
    turn_number,
)
from hogengine.replay import parse_seed, to_record
from hogengine.rules import DEFAULT_RULES, RuleSet, get_rules
from hogengine.solver import PERFECT, Solution, solve
from hogengine.text import shown, whole_number

# Chooses for the player to move, seeing the whole state.
Opponent = Callable[[State], int]
NOTE_AFTER = 1.0  # seconds a solve may take before the perfect player says it is thinking


def perfect_play(rules: RuleSet, goal: int) -> Solution:
    """The solver's perfect play; solving takes seconds under some rule sets, so a slow solve says what it
    is doing."""
    note = threading.Timer(
        NOTE_AFTER,
        print,
        (f"Working out perfect play for {rules.id} to {goal}...",),
        {"file": sys.stderr, "flush": True},
    )
    note.start()
    try:
        return solve(rules, goal, cache_dir())
    finally:
        note.cancel()


def perfect(rules: RuleSet, goal: int) -> Opponent:
    """The full-state perfect player, as the bot's `perfect` level plays."""
    return perfect_play(rules, goal).best_choice


HUMAN = "human"
# Opponents by name for `--vs` (None: a second person); any other name is a strategy.
OPPONENTS: dict[str, Callable[[RuleSet, int], Opponent | None]] = {
    HUMAN: lambda rules, goal: None,
    PERFECT: perfect,
}
VS_HELP = f"who plays against you: {HUMAN} (a friend at this keyboard), {HELP}; default course"
UNREADABLE = "\ufffd"  # what stdin reads for bytes that are not text in its encoding
# How a game can stop before its end: what hog play says, and its exit status.
ABANDONED: dict[type[BaseException], tuple[str, int]] = {
    EOFError: ("the input ended before the game did", 1),
    KeyboardInterrupt: ("interrupted, the game is abandoned", 130),
}


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog play` and its options."""
    parser = subparsers.add_parser("play", help="play Hog in the terminal", description=__doc__)
    parser.add_argument("--rules", default=DEFAULT_RULES, help=f"rule set id or alias ({DEFAULT_RULES})")
    parser.add_argument("--goal", type=whole, default=MAX_GOAL, help=f"points to win ({MAX_GOAL})")
    parser.add_argument("--vs", default="course", help=VS_HELP)
    parser.add_argument("--seed", help="the dice seed in hex (default: a fresh secret one)")
    parser.add_argument(
        "--second", action="store_true", help="you are Player 1 and move second; --vs plays Player 0"
    )
    parser.add_argument(
        "--coach",
        action="store_true",
        help="once your opponent has moved, say which of your choices gave away winning chance against "
        "perfect play (5 points or more), and sum up your game at its end",
    )
    parser.set_defaults(func=run)


def opponent_for(spec: str, rules: RuleSet, goal: int) -> Opponent | None:
    """The opponent named by `--vs`: None for a second person, else a function of the state."""
    if spec in OPPONENTS:
        return OPPONENTS[spec](rules, goal)
    table = load_table(spec, rules, goal, (HUMAN, *PLAYERS))
    return lambda state: int(table[state.scores[state.mover], state.scores[1 - state.mover]])


def player_line(state: State, player: int, names: tuple[str, str]) -> str:
    """One player's row on the board: score and every hidden part of theirs the rule set declares."""
    width = max(map(len, names))
    parts = [f"{names[player]:<{width}} {state.scores[player]:>3}"]
    parts += state.ruleset.describe_hidden(state, player)
    return "   ".join(parts)


def choice_text(state: State, choice: int) -> str:
    """A choice as the board lists it: what it does for the player to move now, and Free Bacon's points."""
    label = choice_label(state, choice)
    if choice == 0:
        label += f" (+{int(state.ruleset.step(state.position(), 0, False, 0, state.goal).points)})"
    return f"{choice}: {label}"


def board(state: State, names: tuple[str, str]) -> str:
    """The whole board before a move: scores, hidden parts, who moves, the dice and the choices."""
    rules = state.ruleset
    lines = [f"--- Turn {turn_number(state.turn)} - {rules.title} - first to {state.goal} ---"]
    lines += [f"  {player_line(state, player, names)}" for player in (0, 1)]
    lines += [f"  {line}" for line in rules.describe_hidden(state, None)]
    lines.append(status_line(state, names))
    special = [choice_text(state, choice) for choice in legal_choices(state) if choice <= 0]
    lines.append(f"Choices: {' | '.join(special)} | 1 to {legal_choices(state)[-1]} dice")
    return "\n".join(lines)


def ask(state: State, name: str) -> int:
    """Read a legal choice from stdin, explaining every rejected line; EOFError when input ends."""
    if sys.stdin is None:  # started with standard input closed (`hog play <&-`): nothing will ever come
        raise EOFError
    choices = legal_choices(state)
    low, high = choices[0], choices[-1]
    while True:
        # Everything shown so far must be out before we wait (input() ignores a failed flush): a stdout
        # that cannot be written fails here, whatever its buffering, before the input can run out.
        sys.stdout.flush()
        text = input(f"{name}, your choice ({low} to {high}): ").strip()
        choice = whole_number(text)
        if choice is not None and choice in choices:
            return choice
        what = "That line is not readable text" if UNREADABLE in text else f"{shown(text)} is not a choice"
        print(f"{what}: type a whole number from {low} to {high}.")


def run(args: argparse.Namespace) -> int:
    """Play one game to its end (0), until the input runs out (1) or Ctrl-C (130); then reveal the seed."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not text become UNREADABLE, not a crash
    if args.second and args.vs == HUMAN:
        raise HogError("--second seats you as Player 1, but with --vs human both players are people.")
    rules = get_rules(args.rules)
    state = new_game(rules.id, args.goal)
    opponent = opponent_for(args.vs, rules, args.goal)
    seed = parse_seed(args.seed) if args.seed is not None else new_seed()
    theirs = 0 if args.second else 1  # the opponent's seat, Player 0 moving first
    names = seat_names(args.vs if opponent else None, theirs)
    people = (1 - theirs,) if opponent else (0, 1)  # the seats the coach speaks to
    print(f"Hog: {rules.title}. First to {state.goal} wins.")
    print(f"{plain(rules)}\n(`hog rules` shows every rule set's rules again.)")
    print(f"Dice commitment (SHA-256 of the secret seed, revealed at the end): {commitment(seed)}")
    coach = Coach(perfect_play(rules, args.goal), names, people) if args.coach else None
    results: list[TurnResult] = []
    status = 0
    try:
        while not state.over:
            print(f"\n{board(state, names)}")
            if opponent and state.mover == theirs:
                choice = opponent(state)
                print(f"{names[theirs]} chooses {choice}.")
            else:
                choice = ask(state, names[state.mover])
            result = resolve_seeded(state, choice, seed)
            print("\n".join(turn_lines(result, names)))
            results.append(result)
            for line in game_commentary(results)[-1]:
                print(line)
            if coach is not None:
                coach.speak(results)
            state = result.after
    except (EOFError, KeyboardInterrupt) as stop:  # the game is abandoned, but its dice are still shown
        why, status = ABANDONED[type(stop)]
        print()  # end the unanswered prompt's line
        print(f"hog play: {why}.", file=sys.stderr)
    else:
        print(f"\n{final_line(state, names)}")
        if coach is not None:
            coach.sum_up(results)
    reveal(seed, new_game(rules.id, args.goal), results)
    return status


class Coach:
    """`--coach`: the coach's lines to each person at the keyboard on their own choices, once the other side
    has moved since (it never speaks before), and a line summing up each one's game at its end."""

    def __init__(self, values: Solution, names: tuple[str, str], people: tuple[int, ...]) -> None:
        self.values = values
        self.people = people
        alone = len(people) == 1
        self.addressed = {seat: "Coach" if alone else f"Coach for {names[seat]}" for seat in people}
        self.told: set[int] = set()  # the turns spoken about

    def speak(self, results: list[TurnResult]) -> None:
        """What the coach has to say now that these turns were played."""
        for said in coaching(self.values, results, self.people):
            if said.turn not in self.told:
                self.told.add(said.turn)
                print(f"{self.addressed[said.player]}: {said.text}")

    def sum_up(self, results: list[TurnResult]) -> None:
        """At the game's end: each person's game in one line."""
        self.speak(results)
        moves = [judge(self.values, result) for result in results]
        for seat in self.people:
            print(f"{self.addressed[seat]}: {summary(player_summary(seat, moves), moves)}")


def reveal(seed: bytes, start: State, results: list[TurnResult]) -> None:
    """Reveal the seed and the record that re-plays this game, so anyone can check the dice."""
    print(f"Dice seed: {seed.hex()}")
    print(f"Its SHA-256, shown at the start: {commitment(seed)}")
    print(f"Check the game: echo '{json.dumps(to_record(start, results, seed))}' | {typed_hog()} replay")


def typed_hog() -> str:
    """How to type this very `hog` in the user's shell: `hog` where PATH finds it, else its full path
    (`make play` runs .venv/bin/hog, which is not on PATH), else `python -m hogengine` as it was run."""
    program = Path(sys.argv[0])
    if program.name != "hog":  # `python -m hogengine`, or a caller of main()
        return f"{shlex.quote(sys.executable)} -m hogengine"
    found = shutil.which("hog")
    if found is not None and Path(found).resolve() == program.resolve():
        return "hog"
    return shlex.quote(str(program.resolve()))

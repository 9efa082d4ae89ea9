"""Shared test helpers: play turns and random games, run `hog` (session fixtures, as hypothesis needs)."""

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

import pytest

from hogengine.dice import seeded_rolls
from hogengine.game import State, TurnResult, dice_for, legal_choices, new_game, resolve
from tests.hang import HANG

Turns = Sequence[tuple[int, Sequence[int]]]


def play_turns(state: State, turns: Turns) -> list[TurnResult]:
    """Resolve each (choice, rolls) in order from `state`."""
    results = []
    for choice, rolls in turns:
        results.append(resolve(state, choice, rolls))
        state = results[-1].after
    return results


def start(rules: str, scores: tuple[int, int] = (0, 0), mover: int = 0, **hidden: Any) -> State:
    """A checked new game, with hidden parts set by the names their rule set declares (pork_chop=(1, 0))."""
    return new_game(rules, 100, scores, mover).with_hidden(hidden)


def random_game(
    start: State | str, rng: Random, goal: int = 100, seed: bytes | None = None
) -> list[TurnResult]:
    """A whole game of random legal choices from `start` (a state, or a rule set's new game to `goal`):
    commit-reveal dice from `seed`, else fair dice from `rng`. Every turn but a Pork Chop adds a point and
    both scores stay below the goal until the end, so a game longer than 2 * goal - 1 turns plus a Pork
    Chop per player fails, rather than hangs, the test."""
    state = new_game(start, goal) if isinstance(start, str) else start
    results: list[TurnResult] = []
    for _ in range(2 * state.goal + 1):
        choice = rng.choice(legal_choices(state))
        count, sides = dice_for(state, choice)
        if seed is None:
            rolls = [rng.randint(1, sides) for _ in range(count)]
        else:
            rolls = seeded_rolls(seed, state.turn, count, sides)
        results.append(resolve(state, choice, rolls))
        state = results[-1].after
        if state.over:
            return results
    raise AssertionError(f"the game from {results[0].before} did not end in {len(results)} turns")


@pytest.fixture(scope="session")
def turns() -> Callable[[State, Turns], list[TurnResult]]:
    return play_turns


@pytest.fixture(scope="session")
def begin() -> Callable[..., State]:
    return start


@pytest.fixture(scope="session")
def random_games() -> Callable[..., list[TurnResult]]:
    return random_game


def run_hog(
    *args: str, stdin: str | bytes = "", closed: int | None = None, encoding: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    """`python -m hogengine ARGS` in a child process, as a user runs it, with `stdin` as its input;
    `closed` starts it with that descriptor closed, as `hog ... <&-` (0) or `hog ... >&-` (1) do, and
    `encoding` is its terminal's (PYTHONIOENCODING)."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [sys.executable, "-m", "hogengine", *args],
        check=False,
        input=data,
        capture_output=True,
        timeout=HANG,
        preexec_fn=None if closed is None else lambda: os.close(closed),
        env=None if encoding is None else {**os.environ, "PYTHONIOENCODING": encoding},
    )


@pytest.fixture(scope="session")
def hog() -> Callable[..., subprocess.CompletedProcess[bytes]]:
    return run_hog

"""An optional on-disk cache of solver results, keyed by rule set, goal and the code that made them."""

import hashlib
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.rules import RuleSet
from hogengine.solver.sweep import COMPILED

ENGINE = Path(__file__).resolve().parents[1]
# The sources a result depends on: the rules, the dice distributions and the solver itself; and the
# compiled sweep as it was built (not its C source, which a build may not have caught up with).
SOURCES = ("rules/*.py", "dice.py", "position.py", "solver/*.py")

# Bump when the meaning of a stored array changes without its code changing.
FORMAT = 1


@cache
def fingerprint(rules: RuleSet, goal: int) -> str:
    """A short hash of everything a stored result depends on: rules, choices, goal and solver code."""
    digest = hashlib.sha256(f"{FORMAT}|{type(rules).__qualname__}|{rules.id}|{rules.choices}|{goal}".encode())
    for pattern in SOURCES:
        for source in sorted(ENGINE.glob(pattern)):
            digest.update(source.read_bytes())
    digest.update(COMPILED.read_bytes())
    return digest.hexdigest()[:16]


def _path(directory: Path, rules: RuleSet, goal: int, kind: str) -> Path:
    return directory / f"{kind}-{rules.id}-{goal}-{fingerprint(rules, goal)}.npz"


def load(directory: Path, rules: RuleSet, goal: int, kind: str) -> dict[str, npt.NDArray[Any]] | None:
    """The arrays stored for this result, or None when there are none (or they are unreadable)."""
    try:
        with np.load(_path(directory, rules, goal, kind)) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError):
        return None


def save(directory: Path, rules: RuleSet, goal: int, kind: str, **arrays: npt.NDArray[Any]) -> None:
    """Store arrays for this result, atomically: each writer (processes sharing the folder may solve at
    once) writes a file of its own and renames it into place whole, so a half-written file is never read."""
    directory.mkdir(parents=True, exist_ok=True)
    final = _path(directory, rules, goal, kind)
    handle, name = tempfile.mkstemp(dir=directory, prefix=final.stem, suffix=".partial")
    partial = Path(name)
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(file, allow_pickle=False, **arrays)
        partial.replace(final)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise

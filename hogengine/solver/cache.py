"""An optional on-disk cache of solver results and models, keyed by rule set, goal and the code that
made them."""

import hashlib
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from hogengine.rules import RuleSet
from hogengine.solver.compiled import COMPILED
from hogengine.solver.model import Model, Progress, build, model

ENGINE = Path(__file__).resolve().parents[1]
# The sources a result depends on: the rules, the dice distributions and the solver itself; and the
# compiled sweep as it was built (not its C source, which a build may not have caught up with).
SOURCES = ("rules/*.py", "dice.py", "position.py", "solver/*.py")

# The compiled sweep's source, shipped in the package too, so an installed copy can tell its results current.
KERNEL_SOURCE = ENGINE / "solver" / "_kernel.c"

# Bump when the meaning of a stored array changes without its code changing.
FORMAT = 1


def _digest(rules: RuleSet, goal: int, sweep: Path) -> str:
    digest = hashlib.sha256(f"{FORMAT}|{type(rules).__qualname__}|{rules.id}|{rules.choices}|{goal}".encode())
    for pattern in SOURCES:
        for source in sorted(ENGINE.glob(pattern)):
            digest.update(source.read_bytes())
    digest.update(sweep.read_bytes())
    return digest.hexdigest()[:16]


@cache
def fingerprint(rules: RuleSet, goal: int) -> str:
    """A short hash of everything a stored result depends on: rules, choices, goal and solver code."""
    return _digest(rules, goal, COMPILED)


@cache
def source_fingerprint(rules: RuleSet, goal: int) -> str:
    """As `fingerprint`, but of the sweep's C source rather than its build (which differs from machine to
    machine): what a result shipped with the package names as the code it came from."""
    return _digest(rules, goal, KERNEL_SOURCE)


def _path(directory: Path, rules: RuleSet, goal: int, kind: str) -> Path:
    return directory / f"{kind}-{rules.id}-{goal}-{fingerprint(rules, goal)}.npz"


def load(directory: Path, rules: RuleSet, goal: int, kind: str) -> dict[str, npt.NDArray[Any]] | None:
    """The arrays stored for this result, or None when there are none (or they are unreadable)."""
    try:
        with np.load(_path(directory, rules, goal, kind)) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError):
        return None


def save(directory: Path, rules: RuleSet, goal: int, kind: str, /, **arrays: npt.NDArray[Any]) -> None:
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


def kept_model(rules: RuleSet, goal: int, directory: Path | None, progress: Progress | None = None) -> Model:
    """The model of these rules at this goal: kept in memory, else read from `directory`, else built (and
    stored there). The largest takes seconds to build and hundreds of megabytes, so a command line that
    needs it at every call keeps it, in files it maps rather than reads."""
    if directory is None:
        return model(rules, goal, progress)
    folder = directory / f"model-{rules.id}-{goal}-{fingerprint(rules, goal)}"

    def read_or_build() -> Model:
        found = _mapped_model(rules, goal, folder)
        if found is None:
            found = build(rules, goal, progress)
            _store_folder(folder, _arrays(found))
        return found

    return model(rules, goal, progress, read_or_build)


def _mapped_model(rules: RuleSet, goal: int, folder: Path) -> Model | None:
    """The model stored in `folder`, its arrays mapped read-only from their files, or None."""
    try:
        stored = {path.stem: np.load(path, mmap_mode="r") for path in folder.glob("*.npy")}
    except (OSError, ValueError):
        return None
    return _model(rules, goal, stored)


def _store_folder(folder: Path, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Store each array as a .npy file in `folder`, atomically: written into a folder of this writer's own,
    renamed into place whole; when another writer's is there first, it is kept and this one dropped."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(dir=folder.parent, prefix=folder.name, suffix=".partial"))
    try:
        for name, array in arrays.items():
            np.save(partial / f"{name}.npy", array, allow_pickle=False)
        partial.rename(folder)
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)
        if not folder.is_dir():  # not another writer's win: a full disk, a folder gone
            raise
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


# The arrays of a Model, as stored; its dice and their outcome probabilities are stored apart.
MODEL_ARRAYS = (
    *("choices", "layer", "mover", "opponent", "index", "stages"),
    *("kind", "row_start", "target", "again"),
)


def _arrays(found: Model) -> dict[str, npt.NDArray[Any]]:
    arrays = {name: getattr(found, name) for name in MODEL_ARRAYS}
    arrays["dice"] = np.array(found.dice, dtype=np.int64).reshape(-1, 2)
    arrays["outcomes"] = np.concatenate(found.outcomes)
    arrays["outcome_sizes"] = np.array([len(p) for p in found.outcomes], dtype=np.int64)
    return arrays


def _model(rules: RuleSet, goal: int, stored: dict[str, npt.NDArray[Any]]) -> Model | None:
    """The stored model, or None when its arrays do not fit together (it is built again)."""
    names = {*MODEL_ARRAYS, "dice", "outcomes", "outcome_sizes"}
    if set(stored) != names or stored["index"].shape != (rules.layers, goal, goal):
        return None
    sizes = stored["outcome_sizes"]
    if len(stored["row_start"]) != len(stored["kind"]) + 1 or stored["row_start"][-1] != len(
        stored["target"]
    ):
        return None
    if len(sizes) != len(stored["dice"]) or sizes.sum() != len(stored["outcomes"]):
        return None
    outcomes = tuple(np.split(stored["outcomes"], np.cumsum(sizes)[:-1]))
    dice = tuple((int(count), int(sides)) for count, sides in stored["dice"])
    return Model(rules=rules, goal=goal, dice=dice, outcomes=outcomes, **{n: stored[n] for n in MODEL_ARRAYS})

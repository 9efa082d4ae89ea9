"""The compiled sweep (hogengine/solver/_kernel.c): a block gives each pair's figures, what it cannot read
safely is refused, a built wheel carries it, and a source tree without it says how to build it."""

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hogengine
from hogengine.rules import get_rules
from hogengine.solver import _kernel
from hogengine.solver.model import Model, model
from hogengine.solver.winrate import pair_values

RULES = get_rules("pork-chop")  # extra turns, pork chops and two dice kinds: every part of a model
GOAL = 12
ROOT = Path(hogengine.__file__).resolve().parents[1]


def arguments(built: Model, left: np.ndarray, right: np.ndarray) -> list[np.ndarray]:
    """The kernel's arguments for a block of these columns [mover, state], matrices ready to fill."""
    span = built.size + 2 + len(built.again)
    matrices = [np.zeros((span, len(left), len(right))), np.zeros((span, len(right), len(left)))]
    for matrix in matrices:
        matrix[built.won] = 1.0
    model_arrays = [
        built.target,
        built.row_start,
        built.kind,
        built.kind_first,
        built.probability,
        built.again,
    ]
    return [*model_arrays, left, matrices[0], right, matrices[1]]


def block(built: Model, movers: int = 2, opponents: int = 3) -> list[np.ndarray]:
    rng = np.random.default_rng(movers * 10 + opponents)
    left, right = (
        rng.integers(0, built.width, (count, built.size)).astype(np.int8) for count in (movers, opponents)
    )
    return arguments(built, left, right)


def test_a_block_fills_both_matrices_with_the_pairs_win_rates() -> None:
    """The same pairs swept one by one (pair_values) give each cell of the block."""
    built = model(RULES, GOAL)
    args = block(built)
    _kernel.sweep(*args)
    left, ahead, right, behind = args[6:]
    for i in range(len(left)):
        for j in range(len(right)):
            mine, theirs = pair_values(built, left[i], right[j])
            assert 1 - behind[: built.size, j, i] == pytest.approx(mine, abs=1e-12)
            assert 1 - ahead[: built.size, i, j] == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize(("movers", "opponents"), [(8, 8), (3, 5), (6, 1), (1, 1)])
def test_the_avx2_sweep_gives_the_baselines_bits(movers: int, opponents: int) -> None:
    """Where the processor has AVX2 the sweep runs it (`WIDE`), and every value is the baseline's to the last
    bit (no fused multiply-add): figures do not depend on the machine that swept them."""
    built = model(get_rules("swine-align"), 100)  # extra turns and every number of dice
    wide, plain = block(built, movers, opponents), block(built, movers, opponents)
    _kernel.sweep(*wide)
    _kernel.sweep(*plain, False)
    for found, expected in ((wide[7], plain[7]), (wide[9], plain[9])):
        assert np.array_equal(found.view(np.uint64), expected.view(np.uint64))
    assert isinstance(_kernel.WIDE, bool)
    if Path("/proc/cpuinfo").exists() and " avx2 " in Path("/proc/cpuinfo").read_text():
        assert _kernel.WIDE  # and the comparison above held the two apart


BAD_ARRAYS = [
    (0, lambda a: a.astype(np.int64), "target must be a C-contiguous 1-dimensional array of int32"),
    (1, lambda a: a.astype(np.float64), "row_start must be"),
    (2, lambda a: a.astype(np.int8), "kind must be"),
    (4, lambda a: a.astype(np.float32), "probability must be"),
    (6, lambda a: a.T.copy().T, "left_columns must be"),  # Fortran order
    (6, lambda a: a.ravel(), "left_columns must be"),
    (7, lambda a: a[:, :, ::-1], "left_matrix must be"),
    (9, lambda a: a.astype(">f8"), "right_matrix must be"),
    (8, lambda a: [[0] * a.shape[1]], "a bytes-like object is required, not 'list'"),
]


@pytest.mark.parametrize(("place", "spoil", "message"), BAD_ARRAYS)
def test_arrays_of_another_type_or_layout_are_refused(
    place: int, spoil: Callable[[np.ndarray], object], message: str
) -> None:
    args = block(model(RULES, GOAL))
    args[place] = spoil(args[place])
    with pytest.raises(TypeError, match=message):
        _kernel.sweep(*args)


def test_read_only_matrices_and_a_wrong_count_of_arguments_are_refused() -> None:
    args = block(model(RULES, GOAL))
    args[9].flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        _kernel.sweep(*args)
    with pytest.raises(TypeError, match="takes 10 or 11 arguments, not 9"):
        _kernel.sweep(*args[:9])


@pytest.mark.parametrize(
    "spoil",
    [
        lambda a: a.__setitem__(7, a[7][:-1]),  # one target row short
        lambda a: a.__setitem__(9, a[9][:, :, :1].copy()),  # opponents other than the left side's movers
        lambda a: a.__setitem__(6, a[6][:, :-1].copy()),  # columns for fewer states than the matrices
        lambda a: a.__setitem__(2, a[2][:-1]),  # kinds for fewer rows than row starts
        lambda a: a.__setitem__(8, np.zeros((9, a[6].shape[1]), dtype=np.int8)),  # a side of nine
    ],
    ids=["span", "opponents", "states", "rows", "nine-a-side"],
)
def test_shapes_that_do_not_fit_one_model_and_block_are_refused(
    spoil: Callable[[list[np.ndarray]], None],
) -> None:
    args = block(model(RULES, GOAL))
    spoil(args)
    with pytest.raises(ValueError, match="shapes do not fit one model and block"):
        _kernel.sweep(*args)


def _first_row_spoilt(built: Model, spoil: Callable[[list[np.ndarray]], None]) -> list[np.ndarray]:
    """A block whose movers all choose column 0 in the first state (so every one reads row 0), spoilt."""
    args = [array.copy() for array in block(built)]
    args[6][:, 0] = args[8][:, 0] = 0
    spoil(args)
    return args


def _set(
    place: int, index: int | Callable[[Model], int], value: Callable[[Model], int]
) -> Callable[[Model, list[np.ndarray]], None]:
    """Spoil argument `place` at `index` (or the index worked out from the model) with a value worked out
    from the model."""

    def spoil(built: Model, args: list[np.ndarray]) -> None:
        at = index(built) if callable(index) else index
        args[place].reshape(-1)[at] = value(built)

    return spoil


def _first_kind(built: Model) -> int:
    """The dice kind of the row read first."""
    return int(built.kind[0])


# Each check of the kernel at its edge, in the one row every mover reads first: the value just past it.
PAST_THE_EDGE = {
    "choice below the columns": _set(6, 0, lambda built: -1),
    "choice past the columns": _set(6, 0, lambda built: built.width),
    "row starting before the targets": _set(1, 0, lambda built: -1),
    "row ending before it starts": _set(1, 1, lambda built: int(built.row_start[0]) - 1),
    "row ending past the targets": _set(1, 1, lambda built: len(built.target) + 1),
    "kind past the kinds": _set(2, 0, lambda built: len(built.kind_first)),
    "kind's probabilities before the first": _set(3, _first_kind, lambda built: -1),
    "kind's probabilities past the last": _set(
        3, _first_kind, lambda built: len(built.probability) - int(built.row_start[1]) + 1
    ),
    "target below the matrices": _set(0, 0, lambda built: -1),
    "target past the matrices": _set(0, 0, lambda built: built.size + 2 + len(built.again)),
}


@pytest.mark.parametrize("spoil", PAST_THE_EDGE.values(), ids=PAST_THE_EDGE.keys())
def test_a_choice_row_kind_or_target_just_past_the_arrays_raises(
    spoil: Callable[[Model, list[np.ndarray]], None],
) -> None:
    """Every index the kernel reads, set one past what its array holds, in a row every mover reads:
    ValueError, and no value is read from beyond the arrays."""
    built = model(RULES, GOAL)
    assert built.row_start[0] == 0  # the row read first has the first targets
    args = _first_row_spoilt(built, lambda args: spoil(built, args))
    with pytest.raises(ValueError, match="an index of the model lies outside its arrays"):
        _kernel.sweep(*args)


def test_the_same_row_just_inside_the_arrays_sweeps() -> None:
    """The edges above are edges: the last column, the last kind's probabilities, the last target."""
    built = model(RULES, GOAL)
    args = _first_row_spoilt(built, lambda args: None)
    args[6][:, 0] = args[8][:, 0] = built.width - 1
    _kernel.sweep(*args)
    assert np.isfinite(args[7]).all() and np.isfinite(args[9]).all()


def _same_matrix_other_columns(args: list[np.ndarray]) -> None:
    args[9], args[8] = args[7], args[6].copy()


def _probabilities_inside_a_matrix(args: list[np.ndarray]) -> None:
    args[4] = args[7].reshape(-1)[: len(args[4])]


def _matrices_overlapping(args: list[np.ndarray]) -> None:
    whole = np.zeros(args[7].size + args[7][0].size)
    args[7] = whole[: args[7].size].reshape(args[7].shape)
    args[9] = whole[args[7][0].size :].reshape(args[9].shape)


@pytest.mark.parametrize(
    "spoil",
    [_same_matrix_other_columns, _probabilities_inside_a_matrix, _matrices_overlapping],
    ids=["same-matrix-other-columns", "probabilities-inside-a-matrix", "matrices-overlapping"],
)
def test_a_value_matrix_sharing_memory_with_another_array_is_refused(
    spoil: Callable[[list[np.ndarray]], None],
) -> None:
    """The sweep writes its matrices while it reads the others: one array seen through another would give
    wrong figures, so only a group against itself (one matrix and one set of columns for both) may share."""
    args = block(model(RULES, GOAL), movers=3, opponents=3)
    spoil(args)
    with pytest.raises(ValueError, match="a value matrix shares memory with another array"):
        _kernel.sweep(*args)


def test_a_group_against_itself_shares_its_matrix_and_columns() -> None:
    built = model(RULES, GOAL)
    args = block(built, movers=3, opponents=3)
    args[8], args[9] = args[6], args[7]
    _kernel.sweep(*args)
    mine, _ = pair_values(built, args[6][0], args[6][1])
    assert 1 - args[7][: built.size, 1, 0] == pytest.approx(mine, abs=1e-12)


def test_the_compiled_sweep_is_built_from_its_source_as_it_is_now() -> None:
    """Tests run the sweep built from the C source beside it (`make` builds it again when that changes):
    an edit not built yet would be tested, and cached, as the old sweep."""
    source = ROOT / "hogengine" / "solver" / "_kernel.c"
    assert Path(_kernel.__file__).stat().st_mtime >= source.stat().st_mtime, "_kernel.c changed: run make"


@settings(max_examples=60, deadline=None)
@given(
    array=st.sampled_from(["target", "row_start", "kind", "kind_first", "columns"]),
    place=st.integers(min_value=0),
    value=st.integers(min_value=-(2**31), max_value=2**31 - 1),
)
def test_an_index_outside_the_arrays_is_refused_never_followed(array: str, place: int, value: int) -> None:
    """A model or strategy spoilt anywhere (a target past the matrices, a row or kind past the arrays, a
    column past the choices) sweeps to a ValueError or, where the spoilt entry stays in range or is never
    read, to finite numbers: the kernel never reads or writes outside what it was given."""
    built = model(RULES, GOAL)
    args = block(built)
    index = {"target": 0, "row_start": 1, "kind": 2, "kind_first": 3, "columns": 6}[array]
    spoilt = args[index].copy()
    flat = spoilt.reshape(-1)
    info = np.iinfo(flat.dtype)
    flat[place % len(flat)] = min(max(value, info.min), info.max)
    args[index] = spoilt
    try:
        _kernel.sweep(*args)
    except ValueError as error:
        assert "outside its arrays" in str(error)
    else:
        assert np.isfinite(args[7]).all() and np.isfinite(args[9]).all()


def test_a_source_tree_without_the_compiled_sweep_says_how_to_build_it(tmp_path: Path) -> None:
    """The package copied without its compiled module (a clone never installed): importing the solver
    fails with one message naming the missing module and the install that compiles it."""
    shutil.copytree(
        ROOT / "hogengine",
        tmp_path / "hogengine",
        ignore=shutil.ignore_patterns("*.so", "__pycache__"),
    )
    child = subprocess.run(
        [sys.executable, "-c", "import hogengine.solver"],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert child.returncode == 1
    last = child.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "ImportError: The solver's compiled sweep (hogengine/solver/_kernel.c) is not built"
    )
    assert "pip install" in last and "No module named 'hogengine.solver._kernel'" in last


UNPACKED = """
import sys
import numpy as np
from hogengine.rules import RULE_SETS
from hogengine.solver import _kernel, contest_table, exact_winrate
four, five = (np.full((100, 100), n, dtype=np.int8) for n in (4, 5))
print(_kernel.__file__.startswith(sys.argv[1]), exact_winrate("swine-align", four, five).average)
print(all(contest_table.shipped(ruleset, 100) is not None for ruleset in RULE_SETS))
"""


def test_a_built_wheel_carries_the_compiled_sweep(wheel: Path, tmp_path: Path) -> None:
    """`pip wheel` of the project compiles the sweep into the wheel: its files alone (no source tree, no
    editable install in the way) give RULES.md's always_roll(4) against always_roll(5), and its shipped best
    tables are current (the sweep's C source they name is in it too)."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "unpacked")
    found = subprocess.run(
        [sys.executable, "-c", UNPACKED, str(tmp_path / "unpacked")],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "unpacked")},
    ).stdout.split()
    assert found[0] == "True"
    assert float(found[1]) == pytest.approx(0.463034878620, abs=1e-12)
    assert found[2] == "True"


def _laid(rows: list[int], place: np.ndarray, row_start: np.ndarray, size: int = 10) -> np.ndarray:
    target = np.full(size, -1, dtype=np.int32)
    codes = np.arange(100, 120, dtype=np.int32)
    _kernel.lay(codes, place, row_start, np.array(rows, dtype=np.int64), target)
    return target


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_lay_puts_each_rows_codes_at_its_run(dtype: type) -> None:
    """Rows of one kind lie apart in the model: each gets its codes at its own run, and nothing else moves."""
    row_start = np.array([0, 2, 5, 7, 10], dtype=np.int64)  # runs of 2, 3, 2 and 3
    place = np.array([[4, 5, 6], [7, 8, 9]], dtype=dtype)
    assert _laid([3, 1], place, row_start).tolist() == [-1, -1, 107, 108, 109, -1, -1, 104, 105, 106]


@pytest.mark.parametrize(
    ("rows", "place", "size", "message"),
    [
        ([3], [[4, 5, 20]], 10, "a place, row or run lies outside"),  # a code past the table
        ([3], [[4, -1, 6]], 10, "a place, row or run lies outside"),
        ([4], [[4, 5, 6]], 10, "a place, row or run lies outside"),  # a row past the starts
        ([-1], [[4, 5, 6]], 10, "a place, row or run lies outside"),
        ([0], [[4, 5, 6]], 10, "a place, row or run lies outside"),  # a run of 2 for 3 outcomes
        ([3], [[4, 5, 6]], 9, "a place, row or run lies outside"),  # the run past the target
        ([3, 1], [[4, 5, 6]], 10, "as long as each other"),
    ],
)
def test_lay_refuses_what_lies_outside_its_arrays(
    rows: list[int], place: list[list[int]], size: int, message: str
) -> None:
    row_start = np.array([0, 2, 5, 7, 10], dtype=np.int64)
    with pytest.raises(ValueError, match=message):
        _laid(rows, np.array(place, dtype=np.int32), row_start, size)


def test_lay_refuses_a_target_over_its_codes_and_other_types() -> None:
    codes = np.arange(20, dtype=np.int32)
    place, row_start, rows = (
        np.zeros((1, 2), dtype=np.int32),
        np.array([0, 2], dtype=np.int64),
        np.zeros(1, np.int64),
    )
    with pytest.raises(ValueError, match="shares memory"):
        _kernel.lay(codes, place, row_start, rows, codes[:4])
    with pytest.raises(TypeError, match="place must be a C-contiguous 2-dimensional array of int32 or int64"):
        _kernel.lay(codes, place.astype(np.int16), row_start, rows, np.zeros(4, np.int32))
    with pytest.raises(TypeError, match="takes 5 arguments"):
        _kernel.lay(codes, place, row_start, rows)  # type: ignore[call-arg]

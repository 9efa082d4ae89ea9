"""Dice: exact distributions against brute force, and commit-reveal rolls in range, repeatable and fair."""

import hashlib
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hogengine.dice import commitment, exact_outcomes, new_seed, outcomes, seeded_outcome, seeded_rolls
from hogengine.game import new_game, resolve_seeded
from hogengine.rules import RULE_SETS


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
@pytest.mark.parametrize("sides", [4, 6])
@pytest.mark.parametrize("count", range(5))
def test_exact_outcomes_match_brute_force_enumeration(rules, sides, count):
    brute: Counter[tuple[bool, int]] = Counter()
    for rolls in product(range(1, sides + 1), repeat=count):
        brute[rules.roll_summary(rolls)] += 1
    expected = {key: Fraction(n, sides**count) for key, n in brute.items()}
    exact = exact_outcomes(rules, count, sides)
    assert sum(exact.values()) == 1
    assert {key: p for key, p in exact.items() if p} == expected
    arrays = outcomes(rules, count, sides)
    assert abs(arrays.prob.sum() - 1) < 1e-12


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.id)
def test_exact_outcomes_of_ten_dice_sum_to_one(rules):
    assert sum(exact_outcomes(rules, 10, 6).values()) == 1


@settings(max_examples=200)
@given(
    st.binary(min_size=1, max_size=40),
    st.integers(0, 10**6),
    st.integers(0, 10),
    st.sampled_from([4, 6]),
)
def test_seeded_rolls_are_in_range_and_repeatable(seed, turn, count, sides):
    rolls = seeded_rolls(seed, turn, count, sides)
    assert len(rolls) == count
    assert all(1 <= roll <= sides for roll in rolls)
    assert rolls == seeded_rolls(seed, turn, count, sides)
    assert rolls == [seeded_outcome(seed, turn, index, sides) for index in range(count)]


def test_seeded_rolls_follow_the_documented_derivation():
    seed = bytes.fromhex("00" * 31 + "2a")
    message = seed + (3).to_bytes(8, "big") + (1).to_bytes(4, "big") + (0).to_bytes(4, "big")
    first_byte = next(b for b in hashlib.sha256(message).digest() if b < 252)
    assert seeded_outcome(seed, 3, 1, 6) == 1 + first_byte % 6
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_the_readmes_worked_example_of_the_derivation():
    """The numbers the README gives, so anyone re-deriving rolls by hand gets exactly these."""
    seed = bytes.fromhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
    assert commitment(seed) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert hashlib.sha256(seed + bytes(16)).digest()[:4] == bytes.fromhex("efb030fb")
    assert seeded_rolls(seed, 0, 5, 6) == [6, 1, 1, 3, 4]
    assert seeded_rolls(seed, 1, 3, 4) == [1, 4, 2]


def test_a_digest_byte_that_would_bias_a_six_sided_die_is_skipped():
    """Bytes 252..255 would make faces 1-4 likelier than 5-6; the next byte below 252 is used instead."""
    seed = b"no modulo bias"

    def digest(index: int) -> bytes:
        return hashlib.sha256(seed + bytes(8) + index.to_bytes(4, "big") + bytes(4)).digest()

    def telling(i: int) -> bool:  # a rejected first byte whose face differs from the accepted second's
        first, second = digest(i)[:2]
        return first >= 252 > second and (first - second) % 6 != 0

    index = next(i for i in range(10_000) if telling(i))
    first, second = digest(index)[:2]
    assert seeded_outcome(seed, 0, index, 6) == 1 + second % 6
    assert seeded_outcome(seed, 0, index, 6) != 1 + first % 6  # what taking the first byte would give


def test_fresh_seeds_differ_and_are_32_bytes():
    assert len(new_seed()) == 32
    assert new_seed() != new_seed()


@pytest.mark.parametrize(("sides", "critical"), [(4, 16.27), (6, 20.52)])  # chi-square, p = 0.001
def test_seeded_rolls_are_not_biased(sides, critical):
    seed = b"fair dice you can check"
    rolls = [roll for turn in range(1200) for roll in seeded_rolls(seed, turn, 10, sides)]
    expected = len(rolls) / sides
    counts = Counter(rolls)
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))
    assert chi_square < critical


def test_a_live_turn_rolls_the_seeds_dice_the_readme_works_out():
    """README's worked example: five six-sided dice on turn 0 show 6 1 1 3 4."""
    seed = bytes(range(32))
    result = resolve_seeded(new_game("swine-align"), 5, seed)
    assert result.outcomes == (6, 1, 1, 3, 4)
    assert result.points == 1  # a Pig Out scores 1 under swine-align
    assert result.after.turn == 1

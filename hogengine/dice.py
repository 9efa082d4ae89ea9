"""Dice: fair dice over an injected random source, commit-reveal dice and exact distributions.

Commit-reveal derivation (documented in the README, so anyone can re-derive a game's rolls): outcome
`index` of turn `turn` with `sides` sides is found by hashing
`SHA-256(seed || turn as 8 bytes big-endian || index as 4 bytes big-endian || attempt as 4 bytes big-endian)`
for attempt = 0, 1, 2, ...; each digest's bytes are read in order and the first byte b below
256 - 256 % sides is taken, giving the outcome 1 + b % sides (rejection sampling: no modulo bias).
The commitment published when the game starts is SHA-256(seed) in hex.
"""

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from random import Random

import numpy as np

from hogengine.numeric import BoolArray, FloatArray, IntArray
from hogengine.rules.base import RuleSet

Dice = Callable[[], int]
SEED_BYTES = 32


def fair_dice(sides: int, rng: Random) -> Dice:
    """A fair die of `sides` sides drawing from the given random source (never the module-level one)."""
    return lambda: rng.randint(1, sides)


def new_seed() -> bytes:
    """A fresh secret seed for one game's commit-reveal dice."""
    return os.urandom(SEED_BYTES)  # what secrets.token_bytes reads


def commitment(seed: bytes) -> str:
    """What is published at the start of a game: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def seeded_outcome(seed: bytes, turn: int, index: int, sides: int) -> int:
    """Outcome `index` of turn `turn`, derived from the seed without modulo bias (see module doc)."""
    limit = 256 - 256 % sides
    attempt = 0
    while True:
        message = seed + turn.to_bytes(8, "big") + index.to_bytes(4, "big") + attempt.to_bytes(4, "big")
        for byte in hashlib.sha256(message).digest():
            if byte < limit:
                return 1 + byte % sides
        attempt += 1


def seeded_rolls(seed: bytes, turn: int, count: int, sides: int) -> list[int]:
    """All outcomes a turn of `count` dice needs, from the game's seed."""
    return [seeded_outcome(seed, turn, index, sides) for index in range(count)]


@dataclass(frozen=True)
class Outcomes:
    """Every distinct result of rolling some dice: Pig Out or not, points, and its probability."""

    pig_out: BoolArray
    rolled: IntArray
    prob: FloatArray


def _sum_distribution(count: int, sides: int) -> dict[int, Fraction]:
    """Sums of `count` dice that show no 1 (faces 2..sides), each with its probability given no 1."""
    sums = {0: Fraction(1)}
    face = Fraction(1, sides - 1)
    for _ in range(count):
        following: dict[int, Fraction] = {}
        for total, p in sums.items():
            for value in range(2, sides + 1):
                following[total + value] = following.get(total + value, Fraction(0)) + p * face
        sums = following
    return sums


def exact_outcomes(rules: RuleSet, count: int, sides: int) -> dict[tuple[bool, int], Fraction]:
    """The exact distribution of (Pig Out, points) for `count` dice of `sides` sides under these rules."""
    if count == 0:
        return {(False, 0): Fraction(1)}
    result: dict[tuple[bool, int], Fraction] = {}
    one = Fraction(1, sides)
    for ones in range(count + 1):
        p_ones = comb(count, ones) * one**ones * (1 - one) ** (count - ones)
        if ones:
            key = (True, int(rules.pig_out_points(count, ones)))
            result[key] = result.get(key, Fraction(0)) + p_ones
        else:
            for total, p in _sum_distribution(count, sides).items():
                result[(False, total)] = p_ones * p
    return result


@cache
def outcomes(rules: RuleSet, count: int, sides: int) -> Outcomes:
    """The exact distribution as arrays (floats), cached: what the solver sweeps over."""
    pairs = sorted(exact_outcomes(rules, count, sides).items())
    return Outcomes(
        np.array([pig for (pig, _), _ in pairs], dtype=np.bool_),
        np.array([points for (_, points), _ in pairs], dtype=np.int64),
        np.array([float(p) for _, p in pairs], dtype=np.float64),
    )

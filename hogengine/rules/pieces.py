"""The rule pieces the seed rule sets share, each written once for ints and numpy arrays alike.

numpy is imported on the first rule played, not with the rules: naming a rule set costs no numpy (about
50 ms), so `hog check` starts the sandbox on a file while numpy and the solver load."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from hogengine.numeric import Flag, IntArray, Num
else:

    class _Numpy:
        """Stands for numpy until first used, then puts numpy itself in its place in this module."""

        def __getattr__(self, name: str) -> Any:
            numpy = importlib.import_module("numpy")
            globals()["np"] = numpy
            return getattr(numpy, name)

    np = _Numpy()

PI_CHUNK = 1000  # digits of pi made at a time: enough for every goal up to 1000


@cache
def pi_digits(count: int) -> IntArray:
    """Pi's first `count` digits, 3 first, so index n holds digit n after the decimal point: Machin's
    formula, pi = 16 atan(1/5) - 4 atan(1/239), in whole numbers with ten guard digits (exact)."""
    scale = 10 ** (count + 9)

    def arctan_inverse(x: int) -> int:
        total, term, n, sign = 0, scale // x, 1, 1
        while term:
            total += sign * (term // n)
            term //= x * x
            n, sign = n + 2, -sign
        return total

    pi = 16 * arctan_inverse(5) - 4 * arctan_inverse(239)
    return np.array([int(digit) for digit in str(pi // 10**10)], dtype=np.int64)


def _sieve(limit: int) -> list[bool]:
    is_prime = [True] * (limit + 1)
    is_prime[0] = is_prime[1] = False
    for n in range(2, int(limit**0.5) + 1):
        if is_prime[n]:
            is_prime[n * n :: n] = [False] * len(is_prime[n * n :: n])
    return is_prime


def _boost_table(limit: int) -> IntArray:
    """Turn score -> score after Hogtimus Prime, for every score up to limit."""
    is_prime = _sieve(2 * limit + 10)
    table = list(range(limit + 1))
    for n in range(limit + 1):
        if is_prime[n]:
            table[n] = next(m for m in range(n + 1, len(is_prime)) if is_prime[m])
    return np.array(table, dtype=np.int64)


@cache
def _prime_boost() -> IntArray:
    """Hogtimus Prime's table; a turn scores at most 60 before boosts (ten six-sided dice): generous."""
    return _boost_table(200)


def where(condition: Flag, if_true: Num, if_false: Num) -> Num:
    """Pick per state; on plain scalars stays a scalar so live play needs no arrays."""
    result = np.where(condition, if_true, if_false)
    return result if result.ndim else result[()]


def negate(condition: Flag) -> Flag:
    """Logical not that is right for Python bools too (where `~True` is -2)."""
    return np.logical_not(condition)


def free_bacon_pi(opponent: Num) -> Num:
    """Swine Align's Free Bacon: 3 + the opponent-score-th digit of pi (3 + 3 when it is 0), for any score
    (the course's `play` takes goals above 100)."""
    chunks = int(np.max(opponent, initial=0)) // PI_CHUNK + 1  # no scores at all: no digits needed
    return pi_digits(chunks * PI_CHUNK)[opponent] + 3


def largest_digit(score: Num) -> Num:
    """The largest decimal digit of a score (of every score, for an array of them)."""
    largest, rest = score % 10, score // 10
    while np.any(rest):
        largest, rest = np.maximum(largest, rest % 10), rest // 10
    return largest


def free_bacon_digit(opponent: Num) -> Num:
    """Free Bacon of 2015-2017: one more than the largest digit of the opponent's score."""
    return largest_digit(opponent) + 1


def hogtimus_prime(points: Num) -> Num:
    """Hogtimus Prime: a prime turn score becomes the next larger prime; 0 and 1 stay."""
    return _prime_boost()[points]


def hog_wild(mover: Num, opponent: Num) -> Flag:
    """Hog Wild: four-sided dice when the sum of both scores is a multiple of 7 (0 included)."""
    return (mover + opponent) % 7 == 0


def doubled(mover: Num, opponent: Num) -> Flag:
    """Swine Swap of 2017: one score is exactly double the other."""
    return (mover == 2 * opponent) | (opponent == 2 * mover)


def reversed_digits(mover: Num, opponent: Num) -> Flag:
    """Swine Swap of 2015-2016: the last two digits of one score are the other's reversed ('7' reads '07')."""
    a, b = mover % 100, opponent % 100
    return (a // 10 == b % 10) & (a % 10 == b // 10)


def trade_places(swap: Flag, mover: Num, opponent: Num) -> tuple[Num, Num]:
    """The two scores after a swap (Swine Swap, Pork Chop) where `swap` holds, else as they are."""
    return where(swap, opponent, mover), where(swap, mover, opponent)


def swine_align(mover: Num, opponent: Num) -> Flag:
    """Swine Align: both scores positive and their greatest common divisor at least 10."""
    return (mover > 0) & (opponent > 0) & (np.gcd(mover, opponent) >= 10)


def pig_pass(mover: Num, opponent: Num) -> Flag:
    """Pig Pass: the mover trails by one or two points."""
    gap = opponent - mover
    return (gap > 0) & (gap < 3)

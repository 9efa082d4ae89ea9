"""Builders the tests share: people, a hand-moved clock, counted dice seeds, tournament entries, and the
steps the bot takes around an upload or a tournament. Fixtures live in the conftests; these are imported."""

import asyncio
import fcntl
import hashlib
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from bot.config import Settings
from bot.domain.settings import UploadLimits
from bot.services import Match, Player, Tournament, Upload
from bot.services.games.service import Seeds
from bot.services.strategies.service import StrategyService
from bot.services.tournaments.progress import Progress
from bot.services.tournaments.service import TournamentService
from hogengine.game import State
from hogengine.house import course_table
from hogengine.rules import RuleSet
from hogengine.sandbox import Verdict
from hogengine.sandbox.entry import check_entry
from hogengine.strategies import Table, always_roll, table_from_function
from tests.hang import HANG

ALICE = Player(1001, "alice")
BOB = Player(1002, "bob")
CAROL = Player(1003, "carol")
GUILD = 777
CHANNEL = 555
ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"
Choose = Callable[[State], int]
PlayOut = Callable[..., Awaitable[Match]]  # (match, choose=...) -> the match played to its end
Duel = Callable[..., Awaitable[Match]]  # (first, second, rules=..., choose=...) -> a played challenge
HOG = (sys.executable, "-m", "hogengine")  # the `hog` command of the source tree
ADDRESS = re.compile(r"Hog is served at (http://127\.0\.0\.1:\d+/\S*) \(Ctrl-C stops it\)\.")
# A file whose check keeps the sandbox busy (a second of CPU while loading): it starts a cooldown.
BUSY_ROLL_4 = b"import time\nwhile time.process_time() < 1.1:\n    pass\n" + ROLL_4


@contextmanager
def first_comes_first(folder: Path, name: str) -> Iterator[Path]:
    """`folder/name`, to be made by the first of the run's workers to get here while the others wait for
    it: they hold a lock file in turn."""
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield folder / name


def copy_of_the_repository(target: Path) -> Path:
    """The repository's tracked files copied into `target`, as a fresh clone has them (the tree stays
    untouched by what a test builds or runs there)."""
    root = Path(__file__).resolve().parents[1]
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True, text=True
    ).stdout.split("\0")
    for name in filter(None, tracked):
        if (root / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, target / name)
    return target


class FakeClock:
    """Unix time that only moves when told to."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def upload_limits(**changes: Any) -> UploadLimits:
    """The default upload limits (those of the settings), with these changes."""
    return replace(Settings(_env_file=None).services.upload_limits, **changes)  # type: ignore[call-arg]


def counted_seeds() -> Seeds:
    """Dice seeds from a counter: the SHA-256 of b"hog-0", b"hog-1", ..."""
    counter = itertools.count()
    return lambda: hashlib.sha256(b"hog-%d" % next(counter)).digest()


def entries() -> list[tuple[str, Table]]:
    """Four swine-align tournament entries: always 4, always 6, the course strategy, and a mixed table."""
    mixed = np.where(np.arange(100)[:, None] > np.arange(100)[None, :], 3, 7).astype(np.int8)
    return [
        ("fours", table_from_function(always_roll(4), "swine-align")),
        ("sixes", table_from_function(always_roll(6), "swine-align")),
        ("course", course_table("swine-align")),
        ("mixed", mixed),
    ]


async def upload_file(
    strategies: StrategyService, guild_id: int, owner: Player, filename: str, data: bytes, **options: Any
) -> Upload:
    """`admit` then `evaluate`, as the bot does with a file it downloaded."""
    ticket = await strategies.admit(guild_id, owner, filename, len(data), **options)
    return await strategies.evaluate(ticket, data)


async def run_tournament(
    tournaments: TournamentService,
    guild_id: int,
    started_by: Player,
    rules: str = "swine-align",
    fmt: str = "exact",
    *,
    progress: Progress | None = None,
) -> Tournament:
    """`reserve` then `play`, as `/hog tournament` does."""
    async with tournaments.reserve(guild_id, rules, fmt) as draw:
        return await tournaments.play(draw, started_by, progress)


# Starts argv[2:] as a person's terminal would: SIGINT default, so Ctrl-C works even where this run ignores it
# (a background job of a non-interactive shell), and killed if the test thread that started it (argv[1]'s
# process) dies, so an interrupted run leaves no server behind. A program between fork and exec, not
# preexec_fn, which is unsafe with the threads a test run has.
AS_A_PERSON_STARTS_IT = (
    sys.executable,
    "-I",
    "-S",
    "-c",
    "import ctypes, os, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
    "ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG\n"
    "if os.getppid() != int(sys.argv[1]):  # the parent died first: nobody would send it\n"
    "    os._exit(1)\n"
    "os.execvp(sys.argv[2], sys.argv[2:])\n",
)


class Served:
    """A running `hog gui --no-browser` (or with its browser, which `hog` may stand for): its process and
    the address it printed. Only it is ever signalled; it is killed if it hangs or the test run dies."""

    def __init__(
        self, *options: str, cache: Path, hog: Sequence[str | Path] = HOG, browser: bool = False
    ) -> None:
        command = [*hog, "gui", *([] if browser else ["--no-browser"]), "--port", "0", *options]
        env = {**os.environ, "HOG_CACHE_DIR": str(cache)}
        self.process = subprocess.Popen(
            [*AS_A_PERSON_STARTS_IT, str(os.getpid()), *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        watchdog = threading.Timer(HANG, self.process.kill)
        watchdog.start()
        line = self.process.stdout.readline()
        watchdog.cancel()
        found = ADDRESS.fullmatch(line.strip())
        if not found:
            self.process.kill()
            raise AssertionError(f"no address printed: {line!r} {self.process.communicate()[1]}")
        self.url = found[1]
        self.base = self.url.split("#")[0]

    def stop(self) -> tuple[int, str]:
        """Ctrl-C, as a person stops it: the exit status and what it said on stderr."""
        self.process.send_signal(signal.SIGINT)
        return self.outcome()

    def outcome(self) -> tuple[int, str]:
        """The exit status and stderr of a server told to stop; one still running after HANG
        seconds is killed and fails the test."""
        try:
            _, stderr = self.process.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            raise AssertionError(f"hog gui did not stop within {HANG} s of Ctrl-C") from None
        return self.process.returncode, stderr


GATE_WAIT = HANG  # seconds before a held gate fails the test rather than hang it


class Gate:
    """Holds every sandbox run in its worker thread until opened, so a test sees what the event loop does
    meanwhile; a run on the loop itself would block it until the wait gives up and fails."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()

    def run(self, source: bytes, rules: RuleSet, time_limit: float, stop: threading.Event) -> Verdict:
        self.entered.set()
        if not self.opened.wait(GATE_WAIT):
            raise AssertionError("the sandbox was held and never let go")
        return check_entry(source, rules, time_limit, stop)

    async def reached(self) -> None:
        """Until a run has entered the sandbox (waited for in a thread of its own, not on the loop)."""
        assert await asyncio.to_thread(self.entered.wait, GATE_WAIT), "nothing reached the sandbox"

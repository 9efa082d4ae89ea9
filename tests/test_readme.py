"""The README as a newcomer follows it: after its set-up (`.venv` made, `source .venv/bin/activate`), in a
copy of the repository, every command of its shell blocks runs literally as written, with no traceback, and
prints the figures its comments promise; its Python code derives the dice its worked example gives."""

import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.hang import HANG
from tests.helpers import ADDRESS, AS_A_PERSON_STARTS_IT, copy_of_the_repository

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
# A figure a command's comment promises (0.531915246142): the command prints exactly these digits.
FIGURE = re.compile(r"\b0\.\d{9,}\b")

# Commands the test does not run, each with the reason.
NOT_RUN = {"make test": "the suite itself: run from here it would start this test again, without end"}
# Commands that serve until Ctrl-C: their page is fetched, then they are stopped as a person stops them,
# and how each ends: hog with status 130; make, reached by the same Ctrl-C, reports hog's 130 and dies of it.
SERVERS = {"make gui": -signal.SIGINT, "hog gui": 130}
# Exit statuses other than 0 that the README promises: `make run` without a token says where to get one.
STATUS = {"make run": 2}
# What a person types into the games the README starts (other commands ignore it): 4 at every prompt.
TYPED = "4\n" * 300


def commands(block: str) -> list[str]:
    """A shell block's commands, one per line, a line whose quotes are still open going on to the next."""
    found: list[str] = []
    pending = ""
    for line in block.splitlines():
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the command goes on
            continue
        if pending.strip():
            found.append(pending)
        pending = ""
    assert not pending, f"a command of the README never closes its quotes: {pending!r}"
    return found


def shell_blocks() -> list[list[str]]:
    return [commands(body) for language, body in BLOCK.findall(README) if language == "sh"]


def named(command: str, keys: Iterable[str]) -> str | None:
    """The key of `keys` this command starts with, if any."""
    return next((key for key in keys if command.startswith(key)), None)


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's tracked files, as a fresh clone has them, with the README's set-up done: a `.venv`
    that is the suite's own installed environment (linked, not installed again), its stamps up to date."""
    work = copy_of_the_repository(tmp_path_factory.mktemp("readme") / "hogbot")
    venv = work / ".venv"
    venv.mkdir()
    for part in Path(sys.prefix).iterdir():
        if not part.name.startswith("."):
            (venv / part.name).symlink_to(part)
    # After the copy, so make finds nothing to install: reinstalling would point the shared environment
    # at this copy.
    for stamp in (".runtime", ".installed"):
        (venv / stamp).touch()
    return work


def environment(clone: Path) -> dict[str, str]:
    """A bare environment, as a new shell has it: no Discord token, the suite's solver cache, and a
    `BROWSER` that opens nothing (`hog gui` would otherwise look for one on this machine)."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(clone.parent),
        "LANG": "C.UTF-8",
        "HOG_CACHE_DIR": os.environ["HOG_CACHE_DIR"],
        "BROWSER": "true",
    }


def activated(command: str) -> list[str]:
    """The command in bash after the README's `source .venv/bin/activate`."""
    return ["bash", "-c", f"source .venv/bin/activate\n{command}"]


def run(clone: Path, command: str) -> None:
    """Run one command as the README writes it and check what a newcomer would see."""
    done = subprocess.run(
        activated(command),
        cwd=clone,
        env=environment(clone),
        input=TYPED,
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    expected = STATUS.get(named(command, STATUS) or "", 0)
    assert done.returncode == expected, f"{command}\nexit {done.returncode}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, f"{command}\n{done.stderr[-2000:]}"
    assert done.stdout or done.stderr, f"{command} said nothing"
    for figure in FIGURE.findall(command.partition("#")[2]):
        assert figure in done.stdout, f"{command}\nprinted {done.stdout!r}, not {figure}"


def serve(clone: Path, command: str) -> None:
    """Start a command that serves the page, fetch the page from the address it prints, then Ctrl-C."""
    process = subprocess.Popen(
        [*AS_A_PERSON_STARTS_IT, str(os.getpid()), *activated(command)],  # Ctrl-C reaches it wherever run
        cwd=clone,
        env=environment(clone),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's Ctrl-C reaches
    )
    guard = threading.Timer(HANG, os.killpg, (process.pid, signal.SIGKILL))
    guard.start()
    try:
        assert process.stdout is not None
        served = next(filter(None, map(ADDRESS.search, iter(process.stdout.readline, ""))), None)
        assert served, f"{command} printed no address: {process.stderr.read() if process.stderr else ''}"
        with urllib.request.urlopen(served[1], timeout=HANG) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=HANG)
    finally:
        guard.cancel()
    assert "Traceback" not in stderr, stderr
    assert process.returncode == SERVERS[named(command, SERVERS) or ""], stderr


def test_the_readme_has_the_commands_a_newcomer_starts_with() -> None:
    """What the test below runs: a README that lost its blocks would pass it vacuously."""
    found = [command for block in shell_blocks() for command in block]
    for start in ("make run", "make test", "make gui", "hog play", "hog replay", "hog simulate", "hog solve"):
        assert any(start in command for command in found), start
    assert set(NOT_RUN) | set(SERVERS) | set(STATUS) <= {
        named(c, (*NOT_RUN, *SERVERS, *STATUS)) for c in found
    }


@pytest.mark.parametrize("block", shell_blocks(), ids=lambda block: block[0].split("#")[0].strip())
def test_every_command_of_the_readme_runs_as_written(clone: Path, block: list[str]) -> None:
    """Each shell block in order, in the one copy (a command may use what an earlier one wrote)."""
    for command in block:
        if named(command, NOT_RUN):
            continue
        if named(command, SERVERS):
            serve(clone, command)
        else:
            run(clone, command)


def test_the_readmes_python_derives_the_dice_of_its_worked_example() -> None:
    (code,) = [body for language, body in BLOCK.findall(README) if language == "python"]
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    outcome = namespace["outcome"]
    assert callable(outcome)
    seed = bytes.fromhex(re.findall(r"seed `([0-9a-f]{64})`", README)[0])
    six, four = re.findall(r"dice on turn \d show `([\d ]+)`", README)
    assert [outcome(seed, 0, index, 6) for index in range(5)] == [int(face) for face in six.split()]
    assert [outcome(seed, 1, index, 4) for index in range(3)] == [int(face) for face in four.split()]

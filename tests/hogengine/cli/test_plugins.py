"""Commands that installed packages add through the `hog.commands` entry points: one that is broken or
takes a built-in's name is skipped with one line on stderr, and every other command works as before."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hang import HANG

PLUGINS = {
    "broken": "no_such_module:register",  # its package is gone
    "clash": "clash:register",  # adds a second `play`
    "failing": "failing:register",  # raises while it registers
    "hello": "hello:register",  # a good one
}
SOURCES = {
    "clash.py": "def register(subparsers):\n    subparsers.add_parser('play')\n",
    "failing.py": "def register(subparsers):\n    raise RuntimeError('out of bacon')\n",
    "hello.py": (
        "def register(subparsers):\n"
        "    subparsers.add_parser('hello').set_defaults(func=lambda args: print('hi') or 0)\n"
    ),
}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder on the path holding an installed distribution with these entry points and modules."""
    folder = tmp_path_factory.mktemp("site")
    info = folder / "pig_extras-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pig-extras\nVersion: 1.0\n")
    entries = "".join(f"{name} = {target}\n" for name, target in PLUGINS.items())
    (info / "entry_points.txt").write_text(f"[hog.commands]\n{entries}")
    for name, source in SOURCES.items():
        (folder / name).write_text(source)
    return folder


def hog(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "hogengine", *args],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
        env={**os.environ, "PYTHONPATH": path},
    )


def test_broken_and_clashing_commands_are_skipped_with_one_line_each(installed: Path) -> None:
    done = hog(installed, "rules", "fa20")  # a built-in command loads no package's commands
    assert done.returncode == 0 and done.stdout.startswith("swine-align (fa20): ") and done.stderr == ""
    listed = hog(installed, "--help")
    assert listed.returncode == 0
    assert listed.stderr.splitlines() == [
        "hog: skipped the command broken of no_such_module:register: No module named 'no_such_module'",
        "hog: skipped the command clash of clash:register: argument COMMAND: conflicting subparser: play",
        "hog: skipped the command failing of failing:register: out of bacon",
    ]


def test_the_other_commands_work_and_the_built_in_keeps_its_name(installed: Path) -> None:
    assert hog(installed, "hello").stdout == "hi\n"
    assert "play Hog in the terminal" in hog(installed, "--help").stdout
    assert "--vs" in hog(installed, "play", "--help").stdout  # the built-in play, not the clash's

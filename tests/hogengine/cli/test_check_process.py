"""`hog check` as a process: the file starts in the sandbox before numpy and the solver load (they load
while it runs), and Ctrl-C while it runs still stops it, leaves no sandbox process behind and exits 130."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.hang import HANG

SPINS = "while True:\n    pass\n"  # loads forever: the sandbox's time limit is far off


def children(pid: int) -> set[int]:
    """The processes `pid` started, from any of its threads (the sandbox's children are the check's)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except FileNotFoundError:  # the thread ended meanwhile
            continue
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_ctrl_c_while_the_file_runs_stops_the_sandbox_and_exits_130(tmp_path: Path) -> None:
    upload = tmp_path / "spins.py"
    upload.write_text(SPINS)
    env = {**os.environ, "HOG_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "hogengine", "check", "--time-limit", "60", str(upload)]
    check = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HANG
        while not (sandbox := children(check.pid)):  # wait for the file to be running
            assert check.poll() is None, check.communicate()
            assert time.monotonic() < deadline, "the sandbox never started"
            time.sleep(0.01)
        check.send_signal(signal.SIGINT)
        out, err = check.communicate(timeout=HANG)
    finally:
        check.kill()
    assert check.returncode == 130
    assert "Traceback" not in err
    assert out == ""
    assert not [pid for pid in sandbox if alive(pid)]  # the runs of the file were stopped, not left behind


def test_the_sandbox_starts_before_numpy_loads() -> None:
    """What `hog check` imports before it starts the file: the rules and the sandbox, not numpy (about
    50 ms, which the file's run then overlaps)."""
    probe = (
        "import sys, hogengine.cli.check; print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy'))"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert found.stdout == "[]\n"

"""The Discord budget benchmark keeps working: a short run of a few quick games, through the presses and by
the channel, starts both shard processes against the fake Discord and PostgreSQL and reports every figure
(a target missed on a busy machine is a figure, not a failure to run)."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.hang import HANG

ROOT = Path(__file__).resolve().parents[1]


def test_the_discord_budget_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    short = ["--games", "4", "--seconds", "4", "--think", "0.5:1"]
    run = subprocess.Popen(
        [sys.executable, ROOT / "bench" / "bench_discord_budget.py", *short],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        start_new_session=True,  # its bots with it, for the Ctrl-C below
    )
    try:
        stdout, stderr = run.communicate(timeout=HANG)
    except BaseException:  # interrupted, or hung: Ctrl-C lets it stop its bots and its PostgreSQL server
        os.killpg(run.pid, signal.SIGINT)
        run.communicate(timeout=HANG)
        raise
    assert run.returncode in (0, 1), stderr
    assert "Traceback" not in stderr
    lines = stdout.splitlines()
    assert lines[0].startswith("load average at the start: ") and lines[-1].startswith("targets: ")
    for way in ("through the presses (this budget): 4 games, ", "by the channel (as before): 4 games, "):
        assert sum(line.startswith(way) and line.endswith(" turns/s") for line in lines) == 1
    for figure in (
        "  all: ",  # global-limited calls a turn and 429s
        "  press -> the other person notified: ",
        "  press -> the house answered on the board: ",
        "    by stage (p50 / p99): the press called back ",
        "  this process (the fake Discord, the players) woke late: ",
    ):
        assert sum(line.startswith(figure) for line in lines) >= 2, figure
    cores = [line for line in lines if line.startswith("  cores over ")]
    assert len(cores) == 2
    assert all(
        all(name in line for name in ("bot shard 0 ", "bot shard 1 ", "PostgreSQL ", "this process "))
        and " by other work" in line
        for line in cores
    )

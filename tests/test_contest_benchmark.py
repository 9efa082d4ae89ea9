"""The contest benchmark keeps working: a short run (small contests) plays every final it measures, checks
the floor's wins against the stored ones, and reports each figure with its ratio (a target missed on a
busy machine, or a final too quick to compare, is a figure, not a failure to run)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_contest_benchmark_runs_and_reports_every_figure(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            ROOT / "bench" / "bench_contest.py",
            "--entries",
            "12",
            "--sampled",
            "8",
            "--load",
            "12",
        ],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=900,
    )
    assert run.returncode in (0, 1), run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("load average at the start: ") and lines[-2].startswith(
        "load average at the end"
    )
    assert any(line.startswith("exact final, 12 entries: bot ") and " | C floor " in line for line in lines)
    assert any(line.startswith("practice standing of one new entry against 12: ") for line in lines)
    assert any(line.startswith("sampled final, 8 entries: bot ") for line in lines)
    (latency,) = [line for line in lines if line.startswith("turn latency p99 of 50 paced games beside")]
    compared = " computing " in latency and " held still " in latency and " turns verified" in latency
    assert compared or "before it could be held still: nothing to compare" in latency  # a quick final

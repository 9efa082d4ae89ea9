"""The load benchmark on PostgreSQL keeps working: a short run on the session's server, by one process and
by two side by side, plays, verifies every stored match against its replay and reports its ratios."""

import subprocess
import sys
from pathlib import Path

from tests.postgres_server import PostgresServer

ROOT = Path(__file__).resolve().parents[1]


def test_the_load_benchmark_runs_on_postgresql_with_one_and_two_processes(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    short = ["--games", "4", "--seconds", "0.3", "--rate", "200"]
    on = ["--database", "postgresql", "--database-url", postgres.new_database()]
    run = subprocess.run(
        [sys.executable, ROOT / "bench" / "bench_load.py", *short, *on],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert run.returncode in (0, 1), run.stderr  # 1: a target missed on a busy machine, not a failure to run
    assert "Traceback" not in run.stderr
    assert run.stdout.count("all verified") == 6  # two phases each: SQLite, one and two PostgreSQL processes
    assert "two processes/one" in run.stdout and "targets (postgresql, one process)" in run.stdout

"""The sandbox as a whole: the runner's deadline and caps, the layers of a live child, refusing to run
without seccomp, concurrent use, and the parent's own hardening."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hogengine.sandbox import (
    EvaluationStopped,
    SandboxUnavailable,
    Verdict,
    evaluate_strategy,
    landlock,
    make_undumpable,
    runner,
    seccomp,
)

from .sandbox_support import OK, Evaluate, Host, processes_in_sessions

# Our own helper children for the runner tests: they get the result fd on stdin.
READ_FD = "import os, sys\nfd = int(sys.stdin.read())\n"


# Drops every capability (so root loses CAP_SYS_PTRACE), then tries to read a file: exit 3 if denied.
CAPLESS_READ = (
    "import ctypes, sys\n"
    "ctypes.CDLL(None).capset((ctypes.c_uint32 * 2)(0x20080522, 0), (ctypes.c_uint32 * 6)())\n"
    "try:\n    open(sys.argv[1], 'rb').read()\nexcept PermissionError:\n    sys.exit(3)\n"
)


# Evaluates OK with stdin, stdout and stderr closed, and writes the verdict to the file named by argv[1].
CLOSED_STDIO = (
    "import json, os, pathlib, sys\n"
    "os.close(0), os.close(1), os.close(2)\n"
    "from hogengine.sandbox import evaluate_strategy\n"
    f"verdict = evaluate_strategy({OK.encode()!r}, range(11), 2.0)\n"
    "pathlib.Path(sys.argv[1]).write_text(json.dumps(verdict.to_json()))\n"
    "os._exit(0)\n"
)


# Whether this kernel lets this user give a process a PID namespace of its own, asked of util-linux.
OWN_PID_NAMESPACES = subprocess.run(["unshare", "--pid", "--fork", "true"], check=False).returncode == 0
# An upload that reads the test process's CPU clock (through a filter relaxed to allow it) and shows it.
READ_PARENTS_CLOCK = "import time\nraise ValueError(time.clock_gettime((~{parent} << 3) | 2))\n"


def start(tmp_path: Path, code: str) -> runner.Child:
    return runner.Child([sys.executable, "-c", code], str(tmp_path), lambda nonce, fd: str(fd).encode())


def test_deadline_kills_the_whole_process_group(tmp_path: Path) -> None:
    with start(tmp_path, "import os, time\nos.fork()\ntime.sleep(60)\n") as child:
        began = time.monotonic()
        runner.service([child], child, time.monotonic() + 0.5)
        exit = child.reap()
    assert 0.4 < time.monotonic() - began < 5
    assert exit.killed == "deadline" and os.WTERMSIG(exit.status) == signal.SIGKILL
    assert processes_in_sessions([child.pid]) == []


def test_report_is_capped_and_the_flooder_killed(tmp_path: Path) -> None:
    with start(tmp_path, READ_FD + "while True:\n    os.write(fd, b'x' * 65536)\n") as child:
        runner.service([child], child, time.monotonic() + 10)
        exit = child.reap()
    assert exit.killed == "overflow" and len(exit.report) == runner.REPORT_CAP


def test_large_jobs_are_fed_while_reading(tmp_path: Path) -> None:
    code = (
        "import os, sys\nfd, _, rest = sys.stdin.buffer.read().partition(b'\\n')\n"
        "os.write(int(fd), b'%d' % len(rest))\n"
    )
    job = lambda nonce, fd: f"{fd}\n".encode() + b"7" * 900_000  # noqa: E731
    with runner.Child([sys.executable, "-c", code], str(tmp_path), job) as child:
        runner.service([child], child, time.monotonic() + 10)
        exit = child.reap()
    assert (exit.status, exit.report, exit.killed) == (0, b"900000", "")


def test_a_live_child_has_every_layer(sandbox: Evaluate, host: Host) -> None:
    verdicts = []
    worker = threading.Thread(target=lambda: verdicts.append(sandbox("while True:\n    pass\n", 1.0)))
    worker.start()
    status = ""
    for _ in range(200):
        if host.spawned:
            status = Path(f"/proc/{host.spawned[0]}/status").read_text()
            if "Seccomp:\t2" in status:
                break
        time.sleep(0.01)
    pid = host.spawned[0]
    limits = Path(f"/proc/{pid}/limits").read_text()
    fds = sorted(int(fd) for fd in os.listdir(f"/proc/{pid}/fd"))
    environ = Path(f"/proc/{pid}/environ").read_bytes()
    cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
    session = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[2:4]
    namespaced_pids = next(line for line in status.splitlines() if line.startswith("NSpid:")).split()[1:]
    # Only a non-dumpable process hides its environ from a same-user process without CAP_SYS_PTRACE.
    peek = subprocess.run([sys.executable, "-c", CAPLESS_READ, f"/proc/{pid}/environ"], check=False)
    worker.join()
    assert verdicts[0].kind == "too_slow"
    assert "Seccomp:\t2" in status and "NoNewPrivs:\t1" in status and "CapEff:\t0000000000000000" in status
    for name, value in [("cpu time", "2"), ("file size", "0"), ("processes", "0"), ("open files", "16")]:
        assert f"Max {name}" in limits and limits.split(f"Max {name}")[1].split()[:2] == [value, value]
    assert limits.split("Max address space")[1].split()[:2] == [str(256 * 2**20)] * 2
    assert fds[:3] == [0, 1, 2] and len(fds) == 4
    assert environ == b"" and cwd.parent == Path(host.path.parent / "tmp")
    assert session == [str(pid), str(pid)]
    assert namespaced_pids == ([str(pid), "1"] if OWN_PID_NAMESPACES else [str(pid)])
    assert peek.returncode == 3  # non-dumpable, so no core dump either (even to a core_pattern pipe)


def test_no_seccomp_means_no_run(sandbox: Evaluate, host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulate a host where the filter cannot be installed (the kernel rejects the program) and Landlock
    is missing: the upload, which would leave traces if it ran unconfined, must not run at all."""
    monkeypatch.setattr(
        seccomp, "filter_program", lambda fd, arch: seccomp.assemble([(seccomp.LD_ABS_W, 0, 0, 0)])
    )
    monkeypatch.setattr(landlock, "abi_version", lambda: 0)
    with pytest.raises(SandboxUnavailable, match="could not be installed"):
        sandbox("import os\nos.mkdir('{host}/ran')\nopen('{host}/ran.txt', 'w').close()\n" + OK)
    assert not (host.path / "ran").exists() and not (host.path / "ran.txt").exists()


def test_landlock_alone_keeps_files_closed_where_the_kernel_has_it(
    sandbox: Evaluate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the seccomp filter relaxed to allow everything, only Landlock stands between an upload
    and the host's files; without Landlock the same upload reads them (so the probe is real)."""
    allow_all = seccomp.assemble([(seccomp.RET, 0, 0, seccomp.RET_ALLOW)])
    monkeypatch.setattr(seccomp, "filter_program", lambda fd, arch: allow_all)
    peek = "raise ValueError(open('{host}/canary.txt').read())\n"
    denied = "The file raised PermissionError at line 1 while loading"
    assert (denied in (sandbox(peek).reason or "")) == (landlock.abi_version() > 0)
    monkeypatch.setattr(landlock, "abi_version", lambda: 0)
    assert "raised ValueError at line 1 while loading: do not touch" in (sandbox(peek).reason or "")


def test_no_other_process_is_in_reach_even_through_a_relaxed_filter(
    sandbox: Evaluate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the kernel allows it, the child is PID 1 of its own PID namespace: with the seccomp filter
    relaxed, naming the parent's CPU clock is "Invalid argument". Where the kernel refuses, the child
    starts as before (and the relaxed filter lets it read the clock, so the probe is real)."""
    allow_all = seccomp.assemble([(seccomp.RET, 0, 0, seccomp.RET_ALLOW)])
    monkeypatch.setattr(seccomp, "filter_program", lambda fd, arch: allow_all)
    hidden = "The file raised OSError at line 2 while loading: [Errno 22] Invalid argument"
    seen = "The file raised ValueError at line 2 while loading: "
    assert (sandbox(READ_PARENTS_CLOCK).reason or "").startswith(hidden if OWN_PID_NAMESPACES else seen)
    monkeypatch.setattr(runner, "CLONE_NEWPID", 0x1)  # not a namespace: unshare refuses it (EINVAL)
    with runner.own_pid_namespace() as own:
        assert not own
    assert (sandbox(READ_PARENTS_CLOCK).reason or "").startswith(seen)
    monkeypatch.undo()
    assert sandbox(OK).accepted


def test_concurrent_calls_from_threads(sandbox: Evaluate) -> None:
    uploads = {f"def final_strategy(s, o):\n    return {n}\n": ("accepted", n) for n in range(6)} | {
        "import os\nos.fork()\n" + OK: ("forbidden", None),
        "def final_strategy(s, o):\n    return s // 0\n": ("exception", None),
    }
    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = dict(zip(uploads, pool.map(sandbox, uploads), strict=True))
    for source, (kind, value) in uploads.items():
        assert verdicts[source].kind == kind
        if value is not None:
            assert verdicts[source].table == ((value,) * 100,) * 100


def test_a_stopped_run_kills_its_children_and_gives_no_verdict(host: Host) -> None:
    """The bot stopping mid-upload: both children die at once, however long the upload would run."""
    stop = threading.Event()
    outcome: list[BaseException | Verdict] = []

    def run() -> None:
        try:
            outcome.append(evaluate_strategy(b"while True:\n    pass\n", range(11), 5.0, stop=stop))
        except EvaluationStopped as error:
            outcome.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    for _ in range(500):  # both children started: the run is under way
        if len(host.spawned) == 2:
            break
        time.sleep(0.01)
    stop.set()
    worker.join()
    assert len(host.spawned) == 2
    assert [type(found) for found in outcome] == [EvaluationStopped]  # not "too slow": it was cut short
    assert processes_in_sessions(host.spawned) == []


def test_a_parent_without_standard_streams_still_accepts(tmp_path: Path) -> None:
    """With fds 0 to 2 closed, a new pipe would land on them and the child's stdio would replace it."""
    out = tmp_path / "verdict.json"
    subprocess.run([sys.executable, "-c", CLOSED_STDIO, str(out)], cwd=tmp_path, timeout=60, check=True)
    verdict = json.loads(out.read_text())
    assert (verdict["kind"], verdict["reason"]) == ("accepted", None)
    assert verdict["table"] == [[4] * 100] * 100


def test_the_parent_makes_itself_undumpable() -> None:
    make_undumpable()
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE


@pytest.mark.parametrize(
    ("legal", "time_limit"),
    [(range(0, 11, 2), 1.0), (range(0), 1.0), (range(0, 200), 1.0), (range(11), 0.0), (range(11), 1e9)],
)
def test_bad_arguments_are_programming_errors(legal: range, time_limit: float) -> None:
    with pytest.raises(ValueError):
        evaluate_strategy(OK.encode(), legal, time_limit)

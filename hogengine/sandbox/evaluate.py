"""evaluate_strategy: check an upload in two fresh locked-down children and judge what they report.

The first child calls final_strategy on all 10,000 pairs, then re-calls a random sample; a second
child, run at the same time, calls another random sample from scratch. The verdict rests on what
the parent can check itself: exit status, the kernel's CPU accounting and a strict re-parse.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import math
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

from hogengine.sandbox import child, landlock, protocol, runner, seccomp
from hogengine.sandbox.verdict import SandboxUnavailable, Verdict, accepted, rejected

MAX_SOURCE_BYTES = 1_000_000
SAMPLE_SIZE = 200  # pairs re-called in the first child, and called in the second
PR_SET_DUMPABLE = 4
_PROBE = "def final_strategy(score, opponent_score):\n    return 0\n"
_INTERFERED = "The file interfered with the evaluation harness."
_SIGNAL_HINTS: dict[int, str] = {
    signal.SIGSEGV: " (a segmentation fault, e.g. from recursion that is too deep)"
}
# A second run failing this way, after a first run that passed, means the upload is not deterministic.
_DIFFERS = {"syntax_error", "no_final_strategy", "wrong_signature", "exception", "illegal_value"}


@functools.cache
def make_undumpable() -> None:
    """prctl(PR_SET_DUMPABLE, 0): processes of the same user can no longer ptrace this one or read its
    /proc memory and environment. Idempotent; evaluate_strategy calls it, the bot should at startup."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")


def evaluate_strategy(source: bytes, legal: range, time_limit: float = 10.0) -> Verdict:
    """Run an uploaded final_strategy file in the sandbox; its 100 by 100 table or one plain reason.

    Blocking and thread-safe. `legal` is the rule set's range of choices; `time_limit` bounds the
    CPU time of loading the file plus all 10,000 calls. Raises SandboxUnavailable if this host cannot
    install the seccomp filter (the upload is then never run) and ValueError on bad arguments.
    """
    int8 = range(-128, 128)
    if not (
        isinstance(legal, range) and legal.step == 1 and legal and legal[0] in int8 and legal[-1] in int8
    ):
        raise ValueError("legal must be a non-empty range of int8 choices with step 1")
    if not 0 < time_limit <= 600:
        raise ValueError("time_limit must be in (0, 600] seconds")
    make_undumpable()
    if len(source) > MAX_SOURCE_BYTES:
        return rejected("too_large", f"The file is larger than {MAX_SOURCE_BYTES // 1_000_000} MB.")
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as error:
        line = source.count(b"\n", 0, error.start) + 1
        return rejected("not_utf8", f"The file is not valid UTF-8 (first bad byte on line {line}).")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    arch = seccomp.host_arch()
    try:
        return _evaluate(text, legal, time_limit, arch)
    except SandboxUnavailable:
        # User code could forge that report; believe it only if a trivial upload gets the same answer.
        if _evaluate(_PROBE, range(1), 5.0, arch).accepted:
            return rejected("forbidden", _INTERFERED)
        raise


def _evaluate(text: str, legal: range, time_limit: float, arch: seccomp.Arch) -> Verdict:
    rng = random.SystemRandom()
    wall_limit = 2 * time_limit + 2  # CPU is the real limit; the wall clock only catches stalls
    deadline = time.monotonic() + wall_limit
    attr = landlock.ruleset_attr(landlock.abi_version())
    cpu = math.ceil(time_limit + 0.5)  # RLIMIT_CPU counts whole seconds

    def job(mode: str) -> protocol.Job:
        pairs = tuple(rng.sample(range(protocol.PAIRS), SAMPLE_SIZE))
        return protocol.Job(legal, cpu, mode, pairs, b"", attr, text)

    def spawn(spec: protocol.Job, cwd: str) -> runner.Child:
        def encode(nonce: str, result_fd: int) -> bytes:
            bpf = seccomp.filter_program(result_fd, arch)
            return dataclasses.replace(spec, seccomp_filter=bpf).encode(nonce, result_fd)

        return runner.Child(list(_command()), cwd, encode)

    sweep, sample = job("sweep"), job("sample")
    with (
        tempfile.TemporaryDirectory(prefix="hog-sandbox-") as cwd,
        spawn(sweep, cwd) as first,
        spawn(sample, cwd) as second,
    ):
        runner.service([first, second], first, deadline)
        verdict = _judge(first.reap(), sweep, time_limit, wall_limit)
        if isinstance(verdict, Verdict):
            return verdict
        runner.service([second], second, deadline)
        again = _judge(second.reap(), sample, time_limit, wall_limit)
    cpu_seconds = first.reap().cpu_seconds
    if isinstance(again, Verdict):
        if again.kind in _DIFFERS:
            reason = f"The file is not deterministic: a second run went differently. {again.reason}"
            return rejected("not_deterministic", reason, cpu_seconds)
        return again  # a resource verdict, with the CPU time of the run that broke the limit
    for index, value in zip(sample.pairs, again, strict=True):
        if verdict[index] != value:
            score, opponent = divmod(index, 100)
            return rejected(
                "not_deterministic",
                f"final_strategy is not deterministic: for (score {score}, opponent {opponent}) it returned "
                f"{verdict[index]} in one run and {value} in another. It must depend only on the two scores.",
                cpu_seconds,
            )
    return accepted(tuple(verdict[row * 100 : row * 100 + 100] for row in range(100)), cpu_seconds)


def _judge(exit: runner.Exit, job: protocol.Job, time_limit: float, wall_limit: float) -> protocol.Parsed:
    """The values one child reported, or the verdict its exit, its CPU time or its report calls for."""
    cpu = exit.cpu_seconds
    calls = "all 10,000 pairs" if job.mode == "sweep" else f"{len(job.pairs)} pairs in a second run"
    slow = f"The file needs more than {time_limit:g} s of CPU time to load and answer {calls}."
    if exit.killed == "overflow":
        return rejected("forbidden", _INTERFERED, cpu)
    if exit.killed == "deadline":
        return rejected("too_slow", f"The evaluation did not finish within {wall_limit:g} s.", cpu)
    if os.WIFSIGNALED(exit.status):
        number = os.WTERMSIG(exit.status)
        if number == signal.SIGKILL and cpu >= time_limit:  # RLIMIT_CPU's hard limit
            return rejected("too_slow", slow, cpu)
        if number == signal.SIGSYS:  # the seccomp filter killed it
            return rejected(
                "forbidden",
                "The file tried a forbidden operation: files, network, processes, threads, signals and "
                "sleeping are not available to strategies.",
                cpu,
            )
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        hint = _SIGNAL_HINTS.get(number, "")
        return rejected("crashed", f"The evaluation crashed with signal {name}{hint}.", cpu)
    code = os.WEXITSTATUS(exit.status)
    if code == child.EXIT_OUT_OF_MEMORY:
        return rejected("too_much_memory", f"The file used more than {protocol.MEMORY_MB} MB of memory.", cpu)
    parsed = protocol.parse_report(exit.report, exit.nonce, job) if code == 0 else None
    if parsed is None:
        if exit.report and code == 0:
            return rejected("forbidden", _INTERFERED, cpu)
        return rejected(
            "crashed",
            f"The file ended the evaluation early (exit status {code}) before it could finish.",
            cpu,
        )
    if isinstance(parsed, Verdict):
        return Verdict(parsed.accepted, parsed.reason, parsed.kind, None, cpu)
    if cpu > time_limit:
        return rejected("too_slow", slow, cpu)
    return parsed


@functools.cache
def _command() -> tuple[str, ...]:
    """The child command line: an isolated interpreter (no environment, site or bytecode) running child.py."""
    if not sys.executable:
        raise SandboxUnavailable("no Python interpreter to run the sandbox with")
    return (sys.executable, "-I", "-S", "-B", "-c", Path(child.__file__).read_text(encoding="utf-8"))

"""evaluate_strategy: check an upload in two fresh locked-down children and judge what they report.

The first child calls final_strategy on all 10,000 pairs, then re-calls a random sample; a second
child, run at the same time, calls another random sample from scratch. The verdict rests on what
the parent can check itself: exit status, the kernel's CPU accounting and a strict re-parse.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import importlib.util
import marshal
import math
import os
import random
import signal
import sys
import tempfile
import threading
import time
from importlib.machinery import SourceFileLoader
from pathlib import Path

from hogengine.sandbox import child, landlock, protocol, runner, seccomp
from hogengine.sandbox.verdict import SandboxUnavailable, Table, Verdict, accepted, rejected

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
_RANDOM = "not_deterministic"  # the kind of a verdict on answers that differ from run to run
MAX_RANDOM_TABLES = 60
DEFAULT_COURSE_API = "hogengine.course"  # the course's own hog.py: Fall 2020, the default rule set


@functools.cache
def make_undumpable() -> None:
    """prctl(PR_SET_DUMPABLE, 0): processes of the same user can no longer ptrace this one or read its
    /proc memory and environment. Idempotent; evaluate_strategy calls it, the bot should at startup."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_DUMPABLE) failed")


def evaluate_strategy(
    source: bytes | str,
    legal: range,
    time_limit: float = 10.0,
    *,
    random_tables: int = 0,
    course_api: str = DEFAULT_COURSE_API,
    stop: threading.Event | None = None,
) -> Verdict:
    """Run an uploaded final_strategy file in the sandbox; its 100 by 100 table or one plain reason.

    Blocking and thread-safe. `source` is the file's bytes or its text (as read_bytes or read_text give
    it); `legal` is the rule set's range of choices; `time_limit` bounds the CPU time of loading the file
    plus all 10,000 calls. A strategy that answers differently from run to
    run is refused as not deterministic, unless `random_tables` is positive: then that many of its
    tables are recorded, each a sweep of all 10,000 pairs, in one more child allowed `random_tables`
    times the CPU time. The file may import the course's `dice` and `ucb` (our stand-ins) and `hog`, which
    is the module `course_api` names (the course API of the rule set being checked). Setting `stop` (from
    any thread) kills the children and raises EvaluationStopped.
    Raises SandboxUnavailable if this host cannot install the seccomp filter (the upload is then never
    run) and ValueError on bad arguments.
    """
    int8 = range(-128, 128)
    if isinstance(source, str):  # text stays text: a lone surrogate is refused below as bad UTF-8
        source = source.encode("utf-8", "surrogatepass")
    if not isinstance(source, bytes):
        raise ValueError(f"source must be the file's bytes or its text, not {type(source).__name__}")
    if not (
        isinstance(legal, range) and legal.step == 1 and legal and legal[0] in int8 and legal[-1] in int8
    ):
        raise ValueError("legal must be a non-empty range of int8 choices with step 1")
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not 0 < time_limit <= 600:
        raise ValueError("time_limit must be in (0, 600] seconds")
    whole = isinstance(random_tables, int) and not isinstance(random_tables, bool)
    if not whole or not 0 <= random_tables <= MAX_RANDOM_TABLES:
        raise ValueError(f"random_tables must be from 0 to {MAX_RANDOM_TABLES}")
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
    upload = _Upload(text, legal, _course(course_api))
    try:
        verdict = _evaluate(upload, time_limit, arch, random_allowed=random_tables > 0, stop=stop)
        if verdict.kind != _RANDOM or not random_tables:
            return verdict
        return _record(upload, time_limit * random_tables, arch, random_tables, stop=stop)
    except SandboxUnavailable:
        # User code could forge that report; believe it only if a trivial upload gets the same answer.
        if _evaluate(_Upload(_PROBE, range(1), protocol.Course()), 5.0, arch).accepted:
            return rejected("forbidden", _INTERFERED)
        raise


@dataclasses.dataclass(frozen=True)
class _Upload:
    """What every child of one evaluation is given: the file's text, the legal choices, the course."""

    text: str
    legal: range
    course: protocol.Course


@functools.cache
def _course(course_api: str) -> protocol.Course:
    """The course's modules for the children: our stand-ins of dice and ucb (compiled from their sources
    in this install, once), and `course_api` to import as hog from the folders holding hogengine and
    numpy."""
    folder = Path(__file__).resolve().parent.parent / "course"
    standins = tuple(
        (
            name,
            marshal.dumps(
                compile((folder / f"{name}.py").read_bytes(), f"<course {name}>", "exec", dont_inherit=True)
            ),
        )
        for name in ("dice", "ucb")
    )
    numpy = importlib.util.find_spec("numpy")
    paths = [folder.parent.parent, *([Path(numpy.origin).parent.parent] if numpy and numpy.origin else [])]
    return protocol.Course(standins, course_api, tuple(dict.fromkeys(str(path) for path in paths)))


def _job(mode: str, upload: _Upload, time_limit: float, tables: int = 1) -> protocol.Job:
    """A child's job: `mode` with fresh random sample pairs, CPU seconds for `time_limit`, the upload."""
    # Seeded from the system's random bytes, so no upload can foresee the other child's pairs (SystemRandom
    # would ask the kernel for every draw: some 700 system calls, milliseconds a child).
    pairs = tuple(random.Random(os.urandom(32)).sample(range(protocol.PAIRS), SAMPLE_SIZE))
    cpu = math.ceil(time_limit + 0.5)  # RLIMIT_CPU counts whole seconds
    attr = landlock.ruleset_attr(landlock.abi_version())
    return protocol.Job(upload.legal, cpu, mode, pairs, b"", attr, upload.text, tables, upload.course)


def _spawn(job: protocol.Job, cwd: str, arch: seccomp.Arch) -> runner.Child:
    """A child for `job`, its seccomp filter built around the result pipe the runner gives it."""

    def encode(nonce: str, result_fd: int) -> bytes:
        bpf = seccomp.filter_program(result_fd, arch)
        return dataclasses.replace(job, seccomp_filter=bpf).encode(nonce, result_fd)

    return runner.Child(list(_command()), cwd, encode)


def _evaluate(
    upload: _Upload,
    time_limit: float,
    arch: seccomp.Arch,
    *,
    random_allowed: bool = False,
    stop: threading.Event | None = None,
) -> Verdict:
    """The verdict of a sweep child and a sample child; answers that differ between them (or between a
    call and its re-call) are the `_RANDOM` kind, which `random_allowed` keeps apart from a second run
    that failed (the failure itself is the verdict then)."""
    wall_limit = 2 * time_limit + 2  # CPU is the real limit; the wall clock only catches stalls
    deadline = time.monotonic() + wall_limit
    sweep, sample = _job("sweep", upload, time_limit), _job("sample", upload, time_limit)
    with (
        tempfile.TemporaryDirectory(prefix="hog-sandbox-") as cwd,
        _spawn(sweep, cwd, arch) as first,
        _spawn(sample, cwd, arch) as second,
    ):
        runner.service([first, second], first, deadline, stop)
        answers = _judge(first.reap(), sweep, time_limit, wall_limit)
        if isinstance(answers, Verdict):
            return answers
        runner.service([second], second, deadline, stop)
        again = _judge(second.reap(), sample, time_limit, wall_limit)
    cpu_seconds = first.reap().cpu_seconds
    if isinstance(again, Verdict):
        if again.kind in _DIFFERS and not random_allowed:
            reason = f"The file is not deterministic: a second run went differently. {again.reason}"
            return rejected("not_deterministic", reason, cpu_seconds)
        return again  # a resource verdict, with the CPU time of the run that broke the limit
    values = answers.values
    for index, value in zip(sample.pairs, again.values, strict=True):
        if values[index] != value:
            score, opponent = divmod(index, 100)
            return rejected(
                _RANDOM,
                f"final_strategy is not deterministic: for (score {score}, opponent {opponent}) it returned "
                f"{values[index]} in one run and {value} in another. It must depend only on the two scores.",
                cpu_seconds,
            )
    return accepted(_rows(values), cpu_seconds, answers.team_name)


def _record(
    upload: _Upload,
    time_limit: float,
    arch: seccomp.Arch,
    tables: int,
    *,
    stop: threading.Event | None,
) -> Verdict:
    """A random strategy's verdict: `tables` tables, each a sweep of every pair, in one fresh child."""
    wall_limit = 2 * time_limit + 2
    job = _job("record", upload, time_limit, tables)
    with tempfile.TemporaryDirectory(prefix="hog-sandbox-") as cwd, _spawn(job, cwd, arch) as child:
        runner.service([child], child, time.monotonic() + wall_limit, stop)
        answers = _judge(child.reap(), job, time_limit, wall_limit)
    if isinstance(answers, Verdict):
        return answers
    sweeps = [answers.values[n * protocol.PAIRS : (n + 1) * protocol.PAIRS] for n in range(tables)]
    recorded = tuple(_rows(values) for values in sweeps)
    return accepted(recorded[0], child.reap().cpu_seconds, answers.team_name, recorded)


def _rows(values: tuple[int, ...]) -> Table:
    """10,000 values in score order as a table's 100 rows."""
    return tuple(values[row * 100 : row * 100 + 100] for row in range(100))


def _judge(exit: runner.Exit, job: protocol.Job, time_limit: float, wall_limit: float) -> protocol.Parsed:
    """The values one child reported, or the verdict its exit, its CPU time or its report calls for."""
    cpu = exit.cpu_seconds
    split = protocol.split_progress(exit.report)
    if exit.killed == "overflow" or split is None:
        return rejected("forbidden", _INTERFERED, cpu)
    progress, report = split
    if exit.killed == "deadline":
        return rejected("too_slow", _too_slow(job, time_limit, cpu, progress, wall_limit), cpu)
    if os.WIFSIGNALED(exit.status):
        number = os.WTERMSIG(exit.status)
        if number == signal.SIGKILL and cpu >= time_limit:  # RLIMIT_CPU's hard limit
            return rejected("too_slow", _too_slow(job, time_limit, cpu, progress), cpu)
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
    parsed = protocol.parse_report(report, exit.nonce, job) if code == 0 else None
    if parsed is None:
        if report and code == 0:
            return rejected("forbidden", _INTERFERED, cpu)
        return rejected(
            "crashed",
            f"The file ended the evaluation early (exit status {code}) before it could finish.",
            cpu,
        )
    if isinstance(parsed, Verdict):
        return Verdict(parsed.accepted, parsed.reason, parsed.kind, None, cpu)
    if cpu > time_limit:
        return rejected("too_slow", _too_slow(job, time_limit, cpu, progress), cpu)
    return parsed


def _too_slow(
    job: protocol.Job, time_limit: float, cpu: float, progress: protocol.Progress, wall_limit: float = 0.0
) -> str:
    """A refusal for time: the limit, how far the file got, and the likely cause (what the child's
    progress marks say, which only the upload could have faked)."""
    calls = {"sweep": protocol.PAIRS, "sample": len(job.pairs), "record": protocol.PAIRS * job.tables}[
        job.mode
    ]
    limit = f"A strategy has {time_limit:g} s of CPU time to load and answer {calls:,} calls"
    if wall_limit:
        limit = f"The check did not finish within {wall_limit:g} s ({limit[2:]})"
    if not progress.loaded:
        return (
            f"{limit}, and this file was still loading: it likely simulates games or rolls many dice outside "
            "any function; do less of that (or none) when the file loads."
        )
    if job.mode == "sample":
        return (
            f"{limit} in a second run (the file loaded again, to check it answers the same), and this file "
            "ran out of time there: time that changes from run to run usually means random simulations; "
            "make final_strategy decide from the two scores."
        )
    done = progress.calls
    if done == 0:
        return (
            f"{limit}, and this file answered fewer than {protocol.CALLS_PER_MARK:,}: a call takes so long "
            "that final_strategy likely simulates games or never stops looping; make one call fast "
            "(decide from the two scores, or remember answers with functools.lru_cache)."
        )
    return (
        f"{limit}, and this file had answered about {done:,} when its time ran out (about "
        f"{cpu / done * 1000:.2g} ms a call): make final_strategy faster, for example by remembering answers "
        "with functools.lru_cache or not simulating games inside it."
    )


@functools.cache
def _command() -> tuple[str, ...]:
    """The child command line: an isolated interpreter (no environment, site or bytecode) running child.py,
    handed over compiled (this install's bytecode of it, for this same interpreter), so that no child spends
    its time compiling the harness's source."""
    if not sys.executable:
        raise SandboxUnavailable("no Python interpreter to run the sandbox with")
    harness = SourceFileLoader(child.__name__, child.__file__).get_code(child.__name__)
    if harness is None:
        raise SandboxUnavailable(f"the sandbox's harness {child.__file__} has no code")
    bootstrap = "import marshal, sys; exec(marshal.loads(bytes.fromhex(sys.argv[1])))"
    return (sys.executable, "-I", "-S", "-B", "-c", bootstrap, marshal.dumps(harness).hex())

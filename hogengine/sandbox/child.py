"""The harness a fresh `python -I -S -B -c` runs: lock the process down, then evaluate one upload.

Standalone (stdlib only, and no `typing`: every child pays for each import) because the child has no
site-packages; the parent imports it only for the protocol constants. Order matters: the job is read
from stdin, then resource limits, the allowlisted imports, the course's modules (docs/sandbox.md), Landlock
and the seccomp filter are applied, and only then does any uploaded code run. The parent trusts nothing
this script reports: user code shares the process and could forge it.
"""

from __future__ import annotations

import builtins
import ctypes
import io
import marshal
import os
import resource
import sys
import types
from collections.abc import Callable

MAGIC = "HOG1"  # first word of the report, followed by the job's nonce
UPLOAD = "<upload>"  # the upload's filename in code objects and tracebacks
EXIT_OUT_OF_MEMORY = 86  # status when memory ran out before the report could be written
# Loaded for every upload: what strategies have always used, cheap enough to load before each run.
ALLOWED_MODULES = ("math", "functools", "itertools", "operator", "collections", "random", "bisect", "heapq")
# Also importable, loaded only for an upload that names them: standard modules students' course files
# use, pure computation all.
IMPORTABLE_MODULES = (
    "__future__",
    "abc",
    "array",
    "copy",
    "dataclasses",
    "decimal",
    "enum",
    "fractions",
    "numbers",
    "re",
    "statistics",
    "string",
    "typing",
)
COURSE_MODULES = ("dice", "ucb", "hog")  # the course's own modules, as our stand-ins (hogengine.course)
# Written to the result pipe before the report, so a run that is killed still says how far it got.
LOADED_MARK = b"+"  # the file has loaded
CALLS_MARK = b"."  # another CALLS_PER_MARK calls answered
CALLS_PER_MARK = 1000
# The names a file may give itself: TEAM_NAME (the contests of 2015-2017), PLAYER_NAME (2020).
NAME_VARIABLES = ("TEAM_NAME", "PLAYER_NAME")
HARNESS_MODULES = ("ctypes", "_ctypes", "resource")  # needed before the filter, not importable after
TEXT_LIMIT = 300  # longest exception message or value description sent to the parent
TEAM_NAME_LIMIT = 80  # longest TEAM_NAME a contest file may give, in characters
BIG_INT_BITS = 64

PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
LANDLOCK_CREATE_RULESET = 444  # same number on x86_64 and aarch64
LANDLOCK_RESTRICT_SELF = 446
CAPABILITY_VERSION_3 = 0x20080522


class Job:
    """The parent's instructions, read from stdin before anything else happens."""

    def __init__(self, data: bytes) -> None:
        head = data.split(b"\n", 11)
        self.nonce = head[0].decode("ascii")
        self.result_fd = int(head[1])
        self.low, self.high = (int(word) for word in head[2].split())
        self.cpu_seconds, self.memory_bytes, self.open_files = (int(word) for word in head[3].split())
        # "sweep": every pair then a re-check of the pairs; "sample": the pairs; "record": every pair,
        # `tables` times over
        self.mode = head[4].decode("ascii")
        self.tables = int(head[5])
        self.pairs = [divmod(int(word), 100) for word in head[6].split()]
        self.seccomp_filter = bytes.fromhex(head[7].decode("ascii"))
        self.landlock_attr = bytes.fromhex(head[8].decode("ascii"))
        # "name=hex(marshalled code) ...": the stand-ins of the course's modules that need only the standard
        # library, compiled once by the parent (this same interpreter)
        self.standins = [
            (name, bytes.fromhex(code))
            for name, _, code in (word.partition("=") for word in head[9].decode("ascii").split())
        ]
        # "module hex(path) ...": the engine's course API to load as `hog`, and where to find it
        words = head[10].decode("ascii").split()
        self.hog_module = words[0] if words else ""
        self.hog_path = [bytes.fromhex(word).decode("utf-8") for word in words[1:]]
        self.source = head[11].decode("utf-8")


class KeyboardRead(Exception):  # noqa: N818 -- what happened, as the report names it
    """Raised by `input()` in the sandbox: nobody is at a keyboard, and the refusal should say so."""


class UploadError(Exception):
    """A failure of the upload found by the harness; raised outside user code, it ends the run."""

    def __init__(self, *words: str) -> None:
        super().__init__()
        self.words = list(words)


class SockFprog(ctypes.Structure):
    """`struct sock_fprog`: the BPF program handed to prctl(PR_SET_SECCOMP)."""

    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


class CapHeader(ctypes.Structure):
    """`struct __user_cap_header_struct` for capset(2)."""

    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _Sink(io.TextIOBase):
    """Stands in for stdout and stderr: prints cost no system call and reach nobody."""

    def write(self, text: str) -> int:
        return len(text)


def main() -> None:
    """Evaluate the job on stdin and write one report to the result pipe; every path ends in _exit."""
    job = Job(_read_stdin())
    os.closerange(3, job.result_fd)
    os.closerange(job.result_fd + 1, 1 << 30)
    for limit, value in (
        (resource.RLIMIT_CPU, job.cpu_seconds),  # soft == hard: the kernel sends SIGKILL, not SIGXCPU
        (resource.RLIMIT_AS, job.memory_bytes),
        (resource.RLIMIT_FSIZE, 0),
        (resource.RLIMIT_NOFILE, job.open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),  # not enforced for root; seccomp forbids fork and clone anyway
    ):
        resource.setrlimit(limit, (value, value))
    for name in ALLOWED_MODULES:
        __import__(name)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    libc.syscall.restype = ctypes.c_long
    failure = _prctl(libc, "PR_SET_DUMPABLE", PR_SET_DUMPABLE, 0)
    failure = failure or _prctl(libc, "PR_SET_NO_NEW_PRIVS", PR_SET_NO_NEW_PRIVS, 1)
    _drop_capabilities(libc)
    code = _compile(job.source)  # runs no upload code; on a syntax error CPython tries to open the file
    names = set() if isinstance(code, list) else _names(code)
    for name in names.intersection(IMPORTABLE_MODULES):
        __import__(name)
    course_failure = _load_course(job, "hog" in names)
    _landlock(libc, job.landlock_attr)  # no file can be opened from here on
    sys.path = []  # importing anything not loaded yet fails without touching the file system
    sys.path_importer_cache.clear()
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(), _Sink(), _Sink()
    builtins.input = _no_keyboard
    failure = failure or _seccomp(libc, job.seccomp_filter)
    # From here on the filter holds: no system call but memory, clocks, random bytes, the report, exit.
    del libc
    for name in HARNESS_MODULES:
        sys.modules.pop(name, None)
    try:
        if failure:
            words = ["unavailable", _hex(failure)]
        elif course_failure:
            words = ["course_unavailable", _hex(course_failure[:TEXT_LIMIT])]
        elif isinstance(code, list):
            words = code
        else:
            words = _run(code, job)
        _send(job, words)
    except MemoryError:
        os._exit(EXIT_OUT_OF_MEMORY)
    except BaseException:
        os._exit(1)
    os._exit(0)


def _names(code: types.CodeType) -> set[str]:
    """Every name the compiled upload uses, nested functions' too: the modules it imports are among them
    (so are its variables and attributes: a few more modules loaded than needed costs only time)."""
    found = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found |= _names(constant)
    return found


def _load_course(job: Job, hog: bool) -> str:
    """Load our stand-ins of the course's modules, before any upload code runs: `dice` and `ucb` from
    their source (standard library only), and for an upload that names `hog`, the engine's course API
    of the rule set being checked, with numpy on one thread. An empty string, else why it failed."""
    for name, code in job.standins:
        module = types.ModuleType(name)
        exec(marshal.loads(code), module.__dict__)
        sys.modules[name] = module
    if not hog or not job.hog_module:
        return ""
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"  # the filter is the calling thread's: no other thread may exist
    # The package's own names for the stand-ins are the stand-ins: `hog.six_sided is dice.six_sided`.
    for name, _ in job.standins:
        sys.modules[f"hogengine.course.{name}"] = sys.modules[name]
    sys.path = [*job.hog_path, *sys.path]
    try:
        __import__(job.hog_module)
    except BaseException as error:  # a broken install, or memory: the upload never runs
        return f"{type(error).__name__}: {error}"
    sys.modules["hog"] = sys.modules[job.hog_module]
    madvise = getattr(sys.modules.get("numpy._core.multiarray"), "_set_madvise_hugepage", None)
    if madvise is not None:
        madvise(False)  # numpy would madvise big arrays, which the filter forbids
    threads = len(os.listdir("/proc/self/task"))
    return "" if threads == 1 else f"loading the course's hog module left {threads} threads"


def _no_keyboard(prompt: object = "") -> str:
    """`input()` in the sandbox: the upload is told nobody is at a keyboard (the report names the line)."""
    raise KeyboardRead("strategies cannot read the keyboard")


def _mark(job: Job, mark: bytes) -> None:
    """Tell the parent how far the run got, before the report (a run killed for time has none)."""
    os.write(job.result_fd, mark)


def _read_stdin() -> bytes:
    chunks = []
    while chunk := os.read(0, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _prctl(libc: ctypes.CDLL, name: str, option: int, value: int) -> str:
    """Set a mandatory process flag: PR_SET_DUMPABLE 0 (no core dump, even to a piped core_pattern
    helper; no ptrace or /proc access by processes of the same user) or PR_SET_NO_NEW_PRIVS 1 (needed by
    seccomp and Landlock, irreversible). An empty string on success, else why it failed."""
    if libc.prctl(option, value, 0, 0, 0) != 0:
        return f"prctl({name}) failed: " + os.strerror(ctypes.get_errno())
    return ""


def _landlock(libc: ctypes.CDLL, attr: bytes) -> None:
    """Best effort: restrict to an empty Landlock rule set (no file or TCP access) if the kernel has one."""
    if attr:
        ruleset = int(libc.syscall(LANDLOCK_CREATE_RULESET, attr, len(attr), 0))
        if ruleset >= 0:
            libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0)
            os.close(ruleset)


def _drop_capabilities(libc: ctypes.CDLL) -> None:
    """Empty every capability set, which matters when the bot runs as root (e.g. MAP_LOCKED would
    otherwise ignore RLIMIT_MEMLOCK). Best effort: seccomp is the boundary."""
    empty = (ctypes.c_uint32 * 6)()  # two `struct __user_cap_data_struct`s, all zero
    libc.capset(ctypes.byref(CapHeader(CAPABILITY_VERSION_3, 0)), empty)


def _seccomp(libc: ctypes.CDLL, program: bytes) -> str:
    """Install the parent's BPF allowlist; an empty string on success, else why it failed."""
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) != 0:
        return "prctl(PR_SET_SECCOMP) failed: " + os.strerror(ctypes.get_errno())
    return ""


def _compile(source: str) -> types.CodeType | list[str]:
    """The upload's code object, or the report line of its syntax error (with the line number)."""
    try:
        return compile(source, UPLOAD, "exec", dont_inherit=True)
    except SyntaxError as error:
        return ["syntax_error", str(error.lineno or 0), _hex(str(error.msg)[:TEXT_LIMIT])]
    except BaseException as error:  # null bytes (ValueError), nesting too deep, out of memory
        return ["syntax_error", "0", _hex((str(error) or type(error).__name__)[:TEXT_LIMIT])]


def _run(code: types.CodeType, job: Job) -> list[str]:
    """Load the upload and call final_strategy as the job says; the report line."""
    namespace: dict[str, object] = {"__name__": "upload", "__builtins__": builtins}
    try:
        try:
            exec(code, namespace)
        except BaseException as error:
            if _out_of_memory(error):
                namespace.clear()
                raise UploadError("too_much_memory", "load", "-1", "-1") from None
            raise _failure(error, "load", "-1", "-1") from None
        _mark(job, LOADED_MARK)
        strategy = namespace.get("final_strategy")
        if strategy is None:
            raise UploadError("no_final_strategy", _hex(_text(_functions, namespace)))
        if not callable(strategy):
            raise UploadError("wrong_signature", _hex("final_strategy is not a function"))
        team = _team_name(namespace)
        every_pair = [(score, opponent) for score in range(100) for opponent in range(100)]
        pairs = job.pairs if job.mode == "sample" else every_pair * job.tables
        values = []
        for i, (score, opponent) in enumerate(pairs):
            values.append(_call(strategy, score, opponent, job, i == 0))
            if (i + 1) % CALLS_PER_MARK == 0:
                _mark(job, CALLS_MARK)
        if job.mode == "sweep":
            _recheck(strategy, values, job)
    except UploadError as failure:
        return failure.words
    return ["table", team, ",".join([str(value) for value in values])]


def _team_name(namespace: dict[str, object]) -> str:
    """The report field of the name the upload gives itself (TEAM_NAME, else PLAYER_NAME), exactly as
    written: "x" if it gives none or leaves it blank (the course's templates start blank); an UploadError
    unless it is a plain str of one line, at most TEAM_NAME_LIMIT characters."""
    variable = next((each for each in NAME_VARIABLES if each in namespace), None)
    if variable is None:
        return "x"
    name = namespace[variable]
    if type(name) is not str:
        raise UploadError("bad_team_name", _hex(variable), _hex(_text(_show, name)))
    if len(name) > TEAM_NAME_LIMIT:
        raise UploadError("bad_team_name", _hex(variable), _hex(f"a string of {len(name)} characters"))
    if any(char < " " or "\x7f" <= char <= "\x9f" for char in name):
        raise UploadError(
            "bad_team_name", _hex(variable), _hex("a string with a line break or control character")
        )
    return _hex(name) if str.strip(name) else "x"


def _functions(namespace: object) -> str:
    """The functions a file defines itself, for a file without final_strategy: "roll_dice, play"."""
    if type(namespace) is not dict:
        return ""
    found = sorted(
        name
        for name, value in dict.items(namespace)
        if type(value) is types.FunctionType and value.__code__.co_filename == UPLOAD
    )
    return ", ".join(found)


def _call(strategy: Callable[..., object], score: int, opponent: int, job: Job, first: bool) -> int:
    """One call of final_strategy, checked: a plain int in the legal range, or an UploadError."""
    at = (str(score), str(opponent))
    try:
        value = strategy(score, opponent)
    except BaseException as error:
        if _out_of_memory(error):
            raise UploadError("too_much_memory", "call", *at) from None
        described = _describe(error)
        # A TypeError on the first call with no frame of the upload: the call itself did not fit.
        if first and described[0] == "0" and type(error) is TypeError:
            raise UploadError("wrong_signature", described[2]) from None
        raise _failure(error, "call", *at) from None
    if type(value) is not int or not job.low <= value < job.high:
        raise UploadError("illegal_value", *at, _hex(_text(_show, value)))
    return value


def _recheck(strategy: Callable[..., object], values: list[int], job: Job) -> None:
    """Call the job's sample pairs again, in its random order: a pure function answers the same."""
    for score, opponent in job.pairs:
        first = values[score * 100 + opponent]
        try:
            again = strategy(score, opponent)
        except BaseException as error:
            if _out_of_memory(error):
                raise UploadError("too_much_memory", "call", str(score), str(opponent)) from None
            again = error
        if type(again) is not int or again != first:
            shown = "an exception" if isinstance(again, BaseException) else _text(_show, again)
            raise UploadError("not_deterministic", str(score), str(opponent), str(first), _hex(shown))


def _failure(error: BaseException, where: str, score: str, opponent: str) -> UploadError:
    """The report of an exception the upload did not catch: reading the keyboard, or any other."""
    described = _describe(error)
    if type(error) is KeyboardRead:
        return UploadError("keyboard", where, score, opponent, described[0])
    return UploadError("exception", where, score, opponent, *described)


def _out_of_memory(error: BaseException) -> bool:
    """True for the interpreter's own MemoryError, which never has arguments; `raise MemoryError('x')`
    (or a subclass) is the upload's own exception. A bare `raise MemoryError` cannot be told apart."""
    return type(error) is MemoryError and not error.args


def _describe(error: BaseException) -> list[str]:
    """[upload line or "0", hex exception type name, hex message] without running harness-unsafe code."""
    line = 0
    try:
        trace = error.__traceback__
        while trace is not None:
            if trace.tb_frame.f_code.co_filename == UPLOAD:
                line = trace.tb_lineno
            trace = trace.tb_next
    except BaseException:
        line = 0
    return [str(line), _hex(_text(_type_name, error)), _hex(_text(str, error))]


def _show(value: object) -> str:
    """A short description of an illegal return value, through the built-in types' own methods."""
    kind = type(value)
    name = _text(_type_name, value)
    plain = "" if kind in (int, float, str) else f" (an instance of {name})"
    if value is None or kind is bool:
        return repr(value)
    if isinstance(value, int):
        return ("a huge int" if int.bit_length(value) > BIG_INT_BITS else int.__repr__(value)) + plain
    if isinstance(value, float):
        return float.__repr__(value) + plain
    if isinstance(value, str):
        return str.__repr__(str.__getitem__(value, slice(0, 20))) + " (a str)" + plain
    return f"an object of type {name}"


def _type_name(value: object) -> object:
    return type(value).__name__


def _text(produce: Callable[[object], object], argument: object) -> str:
    """`produce(argument)` if it gives a str (cut to TEXT_LIMIT), else "?": user code may raise or lie."""
    try:
        text = produce(argument)
    except BaseException:
        return "?"
    return text[:TEXT_LIMIT] if type(text) is str else "?"


def _hex(text: str) -> str:
    """A report field for free text: "x" then the UTF-8 bytes in hex (never empty, never a space)."""
    return "x" + text.encode("utf-8", "replace").hex()


def _send(job: Job, words: list[str]) -> None:
    """Write the single report: magic, nonce, then the words; the parent validates all of it."""
    view = memoryview(f"{MAGIC} {job.nonce}\n{' '.join(words)}\nEND\n".encode("ascii"))
    while view:
        view = view[os.write(job.result_fd, view) :]


if __name__ == "__main__":
    main()

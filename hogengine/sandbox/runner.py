"""Parent side of a child run: spawn it bare, feed its stdin, read its result pipe, kill and reap it.

Nothing the child does can block or flood the parent: every pipe is non-blocking and serviced by one
poll loop with a wall-clock deadline, the report is capped, stdout and stderr go to /dev/null, and
exit is watched through a pidfd so a leaked pipe end cannot hang us. Where the kernel allows it, each
child is PID 1 of a PID namespace of its own, so no system call of it can name another process.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Literal

from hogengine.sandbox.verdict import EvaluationStopped, SandboxUnavailable

REPORT_CAP = 1 << 20  # an honest report is about 30 kB
_CHUNK = 1 << 16
STOP_POLL_SECONDS = 0.1  # how often a run that may be stopped looks at its stop event
# At the deadline a child still getting at least this share of a core is slowed by a busy host, not
# stalled: its deadline moves on (RLIMIT_CPU still ends it), at most MAX_EXTENSIONS times.
PROGRESS_SHARE = 0.02
MAX_EXTENSIONS = 10
CLONE_NEWPID = 0x20000000

Killed = Literal["", "overflow", "deadline"]


@dataclass(frozen=True)
class Exit:
    """How a child ended, from the kernel (wait4) and from what the parent itself did to it."""

    status: int  # the raw wait status
    cpu_seconds: float  # user + system time, counted by the kernel
    report: bytes  # what reached the result pipe, at most REPORT_CAP bytes
    nonce: str
    killed: Killed  # why the parent killed it, "" if it ended by itself


class Child:
    """One child interpreter in its own session, with a job on stdin and a dedicated result pipe.

    A context manager: leaving it kills the whole process group and reaps the child, whatever happened.
    """

    def __init__(self, argv: list[str], cwd: str, job: Callable[[str, int], bytes]) -> None:
        self.nonce = os.urandom(16).hex()  # secrets.token_hex(16), without loading hmac and OpenSSL first
        read_end, write_end = _pipe()
        try:
            self._pending = memoryview(job(self.nonce, write_end))
            with own_pid_namespace():
                self._popen = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    cwd=cwd,
                    env={},
                    close_fds=True,
                    pass_fds=(write_end,),
                    start_new_session=True,
                )
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        self._result: int | None = read_end
        self._report = bytearray()
        self._killed: Killed = ""
        self._exited = False
        self._cpu_seen = 0.0  # its CPU time when the deadline last looked (see progressing)
        self._exit: Exit | None = None
        assert self._popen.stdin is not None
        self._stdin = self._popen.stdin
        os.set_blocking(read_end, False)
        os.set_blocking(self._stdin.fileno(), False)
        self._write_job()  # at once: a job that fits the pipe never waits for the parent's loop
        try:
            self._pidfd = os.pidfd_open(self.pid)
        except (AttributeError, OSError) as error:
            self.kill("deadline")
            self._pidfd = -1
            self.reap()
            raise SandboxUnavailable("pidfd_open is not available on this kernel") from error

    def __enter__(self) -> Child:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._exit is None:
            self.kill("deadline")
            self.reap()

    @property
    def pid(self) -> int:
        """The child's process id, which is also its session and process group id."""
        return self._popen.pid

    @property
    def exited(self) -> bool:
        """True once the process has ended (it is then a zombie until reap())."""
        return self._exited

    def kill(self, why: Killed) -> None:
        """SIGKILL the child's whole process group; only before reaping, so the group id is still ours."""
        if self._exit is None and not self._exited:
            self._killed = self._killed or why
            _kill_group(self.pid)

    def reap(self) -> Exit:
        """Collect the rest of the report, kill any straggler in the group, wait4 and close everything."""
        if self._exit is None:
            self._read_result()
            _kill_group(self.pid)
            _, status, usage = os.wait4(self.pid, 0)
            self._popen.returncode = os.waitstatus_to_exitcode(status)  # so Popen never waits on the pid
            for fd in (self._pidfd, self._result):
                if fd is not None and fd >= 0:
                    os.close(fd)
            self._result = None
            self._close_stdin()
            self._exit = Exit(
                status, usage.ru_utime + usage.ru_stime, bytes(self._report), self.nonce, self._killed
            )
        return self._exit

    def watch(self, poller: select.poll, handlers: dict[int, Callable[[], None]]) -> None:
        """Register the fds that need attention with `poller`, and what to do when they are ready."""
        if self._pending and not self._stdin.closed:
            poller.register(self._stdin.fileno(), select.POLLOUT)
            handlers[self._stdin.fileno()] = self._write_job
        if self._result is not None:
            poller.register(self._result, select.POLLIN)
            handlers[self._result] = self._read_result
        if not self._exited:
            poller.register(self._pidfd, select.POLLIN)
            handlers[self._pidfd] = self._mark_exited

    def _write_job(self) -> None:
        try:
            self._pending = self._pending[os.write(self._stdin.fileno(), self._pending[:_CHUNK]) :]
        except BlockingIOError:
            return
        except OSError:  # the child is gone (EPIPE): it will be judged by its exit
            self._pending = self._pending[:0]
        if not self._pending:
            self._close_stdin()

    def _close_stdin(self) -> None:
        with contextlib.suppress(OSError):
            self._stdin.close()

    def _read_result(self) -> None:
        while self._result is not None:
            try:
                chunk = os.read(self._result, _CHUNK)
            except BlockingIOError:
                return
            if not chunk:
                os.close(self._result)
                self._result = None
                return
            self._report += chunk
            if len(self._report) > REPORT_CAP:
                del self._report[REPORT_CAP:]
                self.kill("overflow")
                os.close(self._result)
                self._result = None

    def _mark_exited(self) -> None:
        self._exited = True

    def progressing(self, since: float, now: float) -> bool:
        """Whether the child used at least PROGRESS_SHARE of a core since the last look (at `since`): a
        busy host slows a child down, only a stall stops its CPU clock."""
        used = _cpu_seconds(self.pid)
        gained, self._cpu_seen = used - self._cpu_seen, used
        return not self._exited and gained >= PROGRESS_SHARE * (now - since)


def service(
    children: Sequence[Child], until: Child, deadline: float, stop: threading.Event | None = None
) -> None:
    """Feed and drain every child until `until` has exited; on reaching the deadline kill them all, unless
    one is still using CPU (a busy host, not a stall: the deadline moves on by as long again). Once `stop`
    is set, raise EvaluationStopped (the children's context managers kill and reap them)."""
    looked = time.monotonic()
    span, extensions = deadline - looked, 0
    while not until.exited:
        if stop is not None and stop.is_set():
            raise EvaluationStopped
        now = time.monotonic()
        remaining = deadline - now
        if remaining <= 0:
            busy = [child.progressing(looked, now) for child in children]
            looked = now
            if any(busy) and extensions < MAX_EXTENSIONS:
                extensions += 1
                deadline = now + span
                continue
            for child in children:
                child.kill("deadline")
            return
        poller = select.poll()
        handlers: dict[int, Callable[[], None]] = {}
        for child in children:
            child.watch(poller, handlers)
        wait = remaining if stop is None else min(remaining, STOP_POLL_SECONDS)
        for fd, _ in poller.poll(wait * 1000):
            handlers[fd]()


def _pipe() -> tuple[int, int]:
    """os.pipe() with both ends at fd 3 or above: in a parent started with stdin, stdout or stderr
    closed they would land on 0 to 2, where the child's own standard streams replace them."""
    ends = os.pipe()
    high: list[int] = []
    try:
        for fd in ends:
            high.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3))
    except OSError:
        for fd in high:
            os.close(fd)
        raise
    finally:
        for fd in ends:
            os.close(fd)
    return high[0], high[1]


@contextlib.contextmanager
def own_pid_namespace() -> Iterator[bool]:
    """While open, the calling thread's next child starts as PID 1 of a new PID namespace, where it sees
    no other process (yields True); False where the kernel refuses (no CAP_SYS_ADMIN, a container's
    profile), and children start as before. Other threads are not affected: the setting is per thread."""
    libc, own = _namespaces()
    if own < 0 or libc.unshare(CLONE_NEWPID) != 0:
        yield False
        return
    try:
        yield True
    finally:
        # Back to our own namespace for this thread's later children; a second unshare needs it too.
        if libc.setns(own, CLONE_NEWPID) != 0:
            raise OSError(ctypes.get_errno(), "setns back to the parent's PID namespace failed")


@functools.cache
def _namespaces() -> tuple[ctypes.CDLL, int]:
    """libc, and a descriptor of this process's own PID namespace (-1 if it cannot be opened)."""
    try:
        own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        own = -1
    return ctypes.CDLL(None, use_errno=True), own


def _cpu_seconds(pid: int) -> float:
    """A running process's user + system time from /proc (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)

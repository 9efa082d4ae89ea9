"""Where a benchmark's cores went, from /proc: each process's CPU time, the time it spent runnable but waiting
for a core, and the whole machine's busy time, over a window of the run.

On a machine shared with other work a latency figure means little alone: a process that waits for a core as
long as it runs is starved, whatever its own code does. A server's workers (PostgreSQL's backends) are
counted with it: those still running, and those ended, which the kernel adds to their parent's account."""

import os
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Use:
    """A process's account so far, in seconds."""

    cpu: float  # on a core
    waited: float  # runnable, waiting for a core (0 where the kernel keeps no schedstat)

    def __sub__(self, other: "Use") -> "Use":
        return Use(self.cpu - other.cpu, self.waited - other.waited)


def _fields(pid: int) -> list[str]:
    """/proc/<pid>/stat's fields after the command's name (field 3 on: state, ppid, ...)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _waited(pid: int) -> float:
    """Seconds every thread of the process spent waiting for a core (/proc/<pid>/task/*/schedstat)."""
    total = 0
    for thread in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((thread / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile, or no schedstat in this kernel
    return total / 1e9


def _children(parent: int) -> list[int]:
    """The processes `parent` started that still run (the kernel lists them by the thread that forked)."""
    found: list[int] = []
    for thread in Path(f"/proc/{parent}/task").iterdir():
        try:
            found += [int(child) for child in (thread / "children").read_text().split()]
        except OSError:
            continue
    return found


def used(pid: int, children: bool = False) -> Use:
    """A process's account so far; with `children`, its children's added (the running ones in full, the
    ended ones' CPU as the kernel keeps it for their parent)."""
    fields = _fields(pid)
    cpu = int(fields[11]) + int(fields[12])
    waited = _waited(pid)
    if children:
        cpu += int(fields[13]) + int(fields[14])  # children ended and waited for
        for child in _children(pid):
            try:
                child_fields = _fields(child)
                cpu += int(child_fields[11]) + int(child_fields[12])
                waited += _waited(child)
            except (OSError, IndexError, ValueError):
                continue  # ended between the listing and the reading: its CPU is now its parent's
    return Use(cpu / TICK, waited)


def machine() -> tuple[float, float]:
    """The machine's busy and elapsed core-seconds so far, every core together (/proc/stat)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks) - idle) / TICK, sum(ticks) / TICK


class Window:
    """Named processes' use and the machine's over a window: opened at construction, read by `close`."""

    def __init__(self, processes: dict[str, tuple[int, bool]]) -> None:
        self._processes = processes  # name -> (pid, with its children)
        self._start = {name: used(pid, kids) for name, (pid, kids) in processes.items()}
        self._machine = machine()

    def close(self) -> str:
        """One line: each process's share of a core over the window (and of waiting for one), and how busy
        the machine was, by these processes and by other work."""
        busy, elapsed = (end - start for end, start in zip(machine(), self._machine, strict=True))
        cores = os.cpu_count() or 1
        seconds = elapsed / cores
        spent = {name: used(pid, kids) - self._start[name] for name, (pid, kids) in self._processes.items()}
        ours = sum(use.cpu for use in spent.values())
        each = ", ".join(
            f"{name} {use.cpu / seconds:.2f} (waited {use.waited / seconds:.2f})"
            for name, use in spent.items()
        )
        return (
            f"cores over {seconds:.0f} s, share of one core used (and spent waiting for one): {each};"
            f" the machine {busy / seconds:.2f} of {cores} busy, {max(busy - ours, 0) / seconds:.2f} by other"
            " work"
        )

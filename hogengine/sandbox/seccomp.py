"""The seccomp-BPF allowlist for the child, assembled by hand (no libseccomp) and installed by child.py.

Built in the parent so the policy lives in typed, testable code; the child only hands the bytes to
prctl(PR_SET_SECCOMP). After the filter a running CPython computing a strategy needs nothing but
memory, a clock, random bytes, one write channel and exit; everything else kills the process, and
nothing allowed can block. No allowed call names another process: a clock is one of the fixed ids.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass

from hogengine.sandbox.verdict import SandboxUnavailable

# Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
LD_ABS_W = 0x20  # BPF_LD | BPF_W | BPF_ABS: A = 32-bit word of seccomp_data at offset k
JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RET = 0x06  # BPF_RET | BPF_K
RET_KILL_PROCESS = 0x80000000
RET_ALLOW = 0x7FFF0000

# struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
OFFSET_NR = 0
OFFSET_ARCH = 4


def offset_arg_low(index: int) -> int:
    """Offset of the low 32 bits of syscall argument `index` (little-endian hosts)."""
    return 16 + 8 * index


PROT_EXEC = 0x4
GRND_RANDOM = 0x2  # getrandom from the blocking pool: could wait without CPU on kernels before 5.6
X32_SYSCALL_BIT = 0x40000000

# clock_gettime's fixed clock ids, CLOCK_REALTIME (0) to CLOCK_TAI (11). The kernel reads the id as a
# signed 32-bit int; the negative ones name another process's or thread's CPU clock, (~pid << 3) | 2,
# or an open clock device, and are killed.
FIXED_CLOCKS = 12

# Allowed whatever their arguments: heap growth and release, exit.
PLAIN_ALLOWED = ("brk", "munmap", "mremap", "exit_group")


@dataclass(frozen=True)
class Arch:
    """One architecture's audit id and the syscall numbers the filter names."""

    audit: int
    numbers: dict[str, int]
    # x86_64 kernels also accept x32-ABI syscalls (bit 30 set) under the same audit arch.
    x32_bit: bool


ARCHES = {
    "x86_64": Arch(
        audit=0xC000003E,
        numbers={
            "write": 1,
            "mmap": 9,
            "brk": 12,
            "munmap": 11,
            "mremap": 25,
            "clock_gettime": 228,
            "getrandom": 318,
            "exit_group": 231,
        },
        x32_bit=True,
    ),
    "aarch64": Arch(
        audit=0xC00000B7,
        numbers={
            "write": 64,
            "mmap": 222,
            "brk": 214,
            "munmap": 215,
            "mremap": 216,
            "clock_gettime": 113,
            "getrandom": 278,
            "exit_group": 94,
        },
        x32_bit=False,
    ),
}

# An instruction with symbolic jump targets: (code, jump-if-true, jump-if-false, k).
Insn = tuple[int, int | str, int | str, int]


def host_arch() -> Arch:
    """The running interpreter's entry in ARCHES, or SandboxUnavailable: no filter, no uploads."""
    return arch_for(os.uname().machine, struct.calcsize("P"))  # platform.machine(), without platform


def arch_for(machine: str, pointer_bytes: int) -> Arch:
    """The entry for an interpreter with `pointer_bytes`-byte pointers on a kernel reporting `machine`.

    The machine is the kernel's; a 32-bit or x32 interpreter on a 64-bit kernel makes system calls of
    another ABI, which the filter would kill every time: it is refused instead, like an unknown machine.
    """
    name = machine.lower()
    arch = ARCHES.get({"amd64": "x86_64", "arm64": "aarch64"}.get(name, name))
    if arch is None:
        raise SandboxUnavailable(f"no seccomp filter for the {machine!r} architecture")
    if pointer_bytes != 8:
        raise SandboxUnavailable(
            f"no seccomp filter for a {8 * pointer_bytes}-bit interpreter on {machine!r}"
        )
    return arch


def filter_program(result_fd: int, arch: Arch) -> bytes:
    """The filter as packed `struct sock_filter`s: writes only to `result_fd`, no executable memory, the
    fixed clocks only."""
    nr = arch.numbers
    program: list[Insn | str] = [
        (LD_ABS_W, 0, 0, OFFSET_ARCH),
        (JEQ, 0, "kill", arch.audit),
        (LD_ABS_W, 0, 0, OFFSET_NR),
    ]
    if arch.x32_bit:
        program.append((JGE, "kill", 0, X32_SYSCALL_BIT))
    program += [(JEQ, "allow", 0, nr[name]) for name in PLAIN_ALLOWED]
    program += [
        (JEQ, "clock", 0, nr["clock_gettime"]),
        (JEQ, "write", 0, nr["write"]),
        (JEQ, "getrandom", 0, nr["getrandom"]),
        (JEQ, "mmap", "kill", nr["mmap"]),
        # clock_gettime(clockid, tp): CPU clocks (time.process_time; the wall clocks normally go through
        # the vDSO), never another process's. Read unsigned, every negative id is 0x80000000 or more.
        "clock",
        (LD_ABS_W, 0, 0, offset_arg_low(0)),
        (JGE, "kill", "allow", FIXED_CLOCKS),
        # write(fd, buf, count): the kernel reads fd as a 32-bit unsigned int.
        "write",
        (LD_ABS_W, 0, 0, offset_arg_low(0)),
        (JEQ, "allow", "kill", result_fd),
        # getrandom(buf, count, flags): random bytes (random.Random() seeds itself), never by waiting
        # for the blocking pool, so no allowed call can sleep.
        "getrandom",
        (LD_ABS_W, 0, 0, offset_arg_low(2)),
        (JSET, "kill", "allow", GRND_RANDOM),
        # mmap(addr, length, prot, ...): no executable mappings, so no new machine code.
        "mmap",
        (LD_ABS_W, 0, 0, offset_arg_low(2)),
        (JSET, "kill", "allow", PROT_EXEC),
        "kill",
        (RET, 0, 0, RET_KILL_PROCESS),
        "allow",
        (RET, 0, 0, RET_ALLOW),
    ]
    return assemble(program)


def assemble(program: list[Insn | str]) -> bytes:
    """Resolve label names (the strings in `program`) into jump offsets and pack the result.

    Classic BPF only jumps forward, at most 255 instructions: anything else is a ValueError.
    """
    labels: dict[str, int] = {}
    code: list[Insn] = []
    for item in program:
        if isinstance(item, str):
            labels[item] = len(code)
        else:
            code.append(item)

    def offset(target: int | str, index: int) -> int:
        if isinstance(target, int):
            return target
        jump = labels[target] - index - 1
        if not 0 <= jump <= 255:
            raise ValueError(f"BPF jump to {target!r} out of range")
        return jump

    return b"".join(
        struct.pack("=HBBI", op, offset(jt, i), offset(jf, i), k) for i, (op, jt, jf, k) in enumerate(code)
    )

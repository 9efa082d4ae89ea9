"""The seccomp program, run through a small classic-BPF interpreter on both architectures."""

from __future__ import annotations

import os
import struct

import pytest

from hogengine.sandbox import SandboxUnavailable, seccomp

RESULT_FD = 7
# Some syscalls that must die, by name and (x86_64, aarch64) number.
DENIED = {
    "read": (0, 63),
    "openat": (257, 56),
    "socket": (41, 198),
    "connect": (42, 203),
    "clone": (56, 220),
    "clone3": (435, 435),
    "execve": (59, 221),
    "kill": (62, 129),
    "mprotect": (10, 226),
    "madvise": (28, 233),
    "futex": (202, 98),
    "rt_sigaction": (13, 134),
    "prlimit64": (302, 261),
    "ptrace": (101, 117),
    "clock_nanosleep": (230, 115),
    "seccomp": (317, 277),
}


def run_bpf(program: bytes, nr: int, arch: int, args: tuple[int, ...] = (0,) * 6) -> int:
    """Execute the packed sock_filters on one `struct seccomp_data`, as the kernel would."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, *args)
    code: list[tuple[int, int, int, int]] = [
        struct.unpack("=HBBI", program[i : i + 8]) for i in range(0, len(program), 8)
    ]
    accumulator, pc = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        pc += 1
        if op == seccomp.LD_ABS_W:
            accumulator = int(struct.unpack_from("<I", data, k)[0])
        elif op == seccomp.RET:
            return k
        else:
            taken = {
                seccomp.JEQ: accumulator == k,
                seccomp.JGE: accumulator >= k,
                seccomp.JSET: bool(accumulator & k),
            }[op]
            pc += jt if taken else jf


@pytest.fixture(params=sorted(seccomp.ARCHES))
def arch(request: pytest.FixtureRequest) -> seccomp.Arch:
    return seccomp.ARCHES[request.param]


def decide(arch: seccomp.Arch, name: str, *args: int) -> int:
    program = seccomp.filter_program(RESULT_FD, arch)
    return run_bpf(program, arch.numbers[name], arch.audit, (*args, 0, 0, 0, 0, 0, 0)[:6])


def test_memory_clock_and_exit_are_allowed(arch: seccomp.Arch) -> None:
    for name in seccomp.PLAIN_ALLOWED:
        assert decide(arch, name) == seccomp.RET_ALLOW


def test_only_the_fixed_clocks(arch: seccomp.Arch) -> None:
    """CLOCK_REALTIME (0) to CLOCK_TAI (11); never a negative id, which names another process's CPU
    clock or a clock device. The kernel reads the id as a 32-bit int: only the argument's low half counts."""
    for clock in range(seccomp.FIXED_CLOCKS):
        assert decide(arch, "clock_gettime", clock) == seccomp.RET_ALLOW
        assert decide(arch, "clock_gettime", clock | 0xFFFFFFFF << 32) == seccomp.RET_ALLOW
    parents_cpu_clock = (~4321 << 3) | 2
    clock_device = (~3 << 3) | 3
    for clock in (12, 2**31 - 1, -1, parents_cpu_clock, (~1 << 3) | 2, clock_device, -(2**31)):
        assert decide(arch, "clock_gettime", clock & 0xFFFFFFFF) == seccomp.RET_KILL_PROCESS
        assert decide(arch, "clock_gettime", clock & 0xFFFFFFFFFFFFFFFF) == seccomp.RET_KILL_PROCESS


def test_random_bytes_but_never_from_the_blocking_pool(arch: seccomp.Arch) -> None:
    nonblock = 0x1
    for flags in (0, nonblock):
        assert decide(arch, "getrandom", 0, 32, flags) == seccomp.RET_ALLOW
    for flags in (seccomp.GRND_RANDOM, seccomp.GRND_RANDOM | nonblock):
        assert decide(arch, "getrandom", 0, 32, flags) == seccomp.RET_KILL_PROCESS


def test_writes_only_to_the_result_pipe(arch: seccomp.Arch) -> None:
    assert decide(arch, "write", RESULT_FD) == seccomp.RET_ALLOW
    assert decide(arch, "write", RESULT_FD | 1 << 32) == seccomp.RET_ALLOW  # the kernel uses the low 32 bits
    for fd in (0, 1, 2, 3, RESULT_FD + 1, 2**32 - 1):
        assert decide(arch, "write", fd) == seccomp.RET_KILL_PROCESS


def test_no_executable_mappings(arch: seccomp.Arch) -> None:
    read_write, private_anonymous = 0x3, 0x22
    assert decide(arch, "mmap", 0, 4096, read_write, private_anonymous) == seccomp.RET_ALLOW
    for prot in (seccomp.PROT_EXEC, read_write | seccomp.PROT_EXEC):
        assert decide(arch, "mmap", 0, 4096, prot, private_anonymous) == seccomp.RET_KILL_PROCESS


@pytest.mark.parametrize("name", sorted(DENIED))
def test_everything_else_kills(name: str) -> None:
    for index, machine in enumerate(("x86_64", "aarch64")):
        arch = seccomp.ARCHES[machine]
        program = seccomp.filter_program(RESULT_FD, arch)
        assert run_bpf(program, DENIED[name][index], arch.audit) == seccomp.RET_KILL_PROCESS


def test_other_architectures_and_x32_calls_are_killed() -> None:
    x86 = seccomp.ARCHES["x86_64"]
    program = seccomp.filter_program(RESULT_FD, x86)
    i386 = 0x40000003
    assert run_bpf(program, x86.numbers["brk"], i386) == seccomp.RET_KILL_PROCESS
    assert (
        run_bpf(program, x86.numbers["brk"] | seccomp.X32_SYSCALL_BIT, x86.audit) == seccomp.RET_KILL_PROCESS
    )
    aarch64 = seccomp.ARCHES["aarch64"]
    assert run_bpf(seccomp.filter_program(RESULT_FD, aarch64), 214, x86.audit) == seccomp.RET_KILL_PROCESS


def test_assembler_rejects_backward_jumps() -> None:
    with pytest.raises(ValueError, match="out of range"):
        seccomp.assemble(["top", (seccomp.JEQ, "top", 0, 1), (seccomp.RET, 0, 0, 0)])


def test_unknown_architecture_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.uname()
    monkeypatch.setattr("os.uname", lambda: os.uname_result((*real[:4], "sparc64")))
    with pytest.raises(SandboxUnavailable, match="sparc64"):
        seccomp.host_arch()


@pytest.mark.parametrize(
    ("machine", "arch"), [("x86_64", "x86_64"), ("AMD64", "x86_64"), ("arm64", "aarch64")]
)
def test_a_64_bit_interpreter_gets_its_kernels_filter(machine: str, arch: str) -> None:
    assert seccomp.arch_for(machine, 8) is seccomp.ARCHES[arch]


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_a_32_bit_or_x32_interpreter_on_a_64_bit_kernel_is_unavailable(machine: str) -> None:
    """Its system calls carry another audit arch (or the x32 bit): the filter would kill every one."""
    with pytest.raises(SandboxUnavailable, match="32-bit interpreter"):
        seccomp.arch_for(machine, 4)

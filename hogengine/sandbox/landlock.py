"""Landlock, the best-effort second layer: an empty rule set that denies every file and TCP access.

The parent asks the kernel which Landlock ABI it speaks and builds `struct landlock_ruleset_attr`
for it; child.py turns it into a ruleset and restricts itself (before the seccomp filter).
"""

from __future__ import annotations

import ctypes
import functools
import struct

CREATE_RULESET = 444  # landlock_create_ruleset: the same number on x86_64 and aarch64
CREATE_RULESET_VERSION = 1 << 0

# handled_access_fs bits by the ABI version that introduced them (linux/landlock.h).
_FS_BITS_V1 = (1 << 13) - 1  # execute, write/read file, read dir, remove/make anything
_FS_REFER = 1 << 13  # ABI 2
_FS_TRUNCATE = 1 << 14  # ABI 3
_FS_IOCTL_DEV = 1 << 15  # ABI 5
_NET_TCP = 0b11  # ABI 4: bind and connect
_SCOPES = 0b11  # ABI 6: abstract unix sockets and signals outside the domain


@functools.cache
def abi_version() -> int:
    """The kernel's Landlock ABI version, 0 when Landlock is absent, disabled or blocked."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    version = libc.syscall(ctypes.c_long(CREATE_RULESET), None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    return max(int(version), 0)


def ruleset_attr(abi: int) -> bytes:
    """`struct landlock_ruleset_attr` handling every right `abi` knows, or b"" when there is no Landlock."""
    if abi < 1:
        return b""
    fs = _FS_BITS_V1
    fs |= _FS_REFER if abi >= 2 else 0
    fs |= _FS_TRUNCATE if abi >= 3 else 0
    fs |= _FS_IOCTL_DEV if abi >= 5 else 0
    fields = [fs]
    if abi >= 4:
        fields.append(_NET_TCP)
    if abi >= 6:
        fields.append(_SCOPES)
    return struct.pack(f"={len(fields)}Q", *fields)

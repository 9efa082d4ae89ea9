"""How the solver asks the system for memory: its largest arrays in ordinary pages, and the C library's
allocator settled before numpy's temporaries come and go."""

import mmap
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

# The allocator keeps blocks up to this size once one has been freed (keep_freed_memory); larger ones it
# maps from the system afresh each time.
KEPT_BLOCK = 16 << 20


def plain_pages(count: int, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """An array of `count` items (not set to anything); if larger than the allocator keeps, in ordinary
    pages mapped for it, without the huge-page advice numpy gives every array of 4 MB or more. Where the
    system compacts its memory to find a huge page at the first write (transparent huge pages' `defrag` on
    `madvise`, the usual default), pig-fest's 310 MB of targets cost 0.2 to 0.8 s of system time in a fresh
    process on this machine, as fragmented memory happened to be, and 0.17 to 0.22 s in ordinary pages, as
    a C program's `malloc` gets them."""
    size = count * np.dtype(dtype).itemsize
    if size <= KEPT_BLOCK or not hasattr(mmap, "MAP_PRIVATE"):  # (Windows: no private anonymous maps)
        return np.empty(count, dtype=dtype)
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return np.frombuffer(memory, dtype=dtype)


@cache
def keep_freed_memory() -> None:
    """Free one block of 16 MB, so that the C library's allocator keeps the memory numpy frees rather than
    give it back to the system at once. glibc hands a block over its threshold (128 KB at first) to the
    system when freed, and takes pages back one fault at a time on the next use, until a block that large
    has been freed: then it keeps blocks up to that size (man mallopt, M_MMAP_THRESHOLD). The rules' work
    on arrays frees megabytes of temporaries at every part of rows: swine-align's first model took 38,000
    page faults instead of 3,500 (0.06 s of its 0.13). Elsewhere it costs an allocation and a free."""
    np.empty(KEPT_BLOCK, dtype=np.uint8)

"""Hostile and broken uploads: each must get the right verdict, and the `host` fixture checks that no
canary file changed, no secret leaked, no process survived and nothing connected to the listener."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from hogengine.sandbox import Verdict

from .sandbox_support import OK, Evaluate, Host, ctypes_of_harness, steal_job


class Case(NamedTuple):
    """An upload, the verdict kind it must get and words its reason must contain."""

    id: str
    source: str
    kind: str
    words: tuple[str, ...] = ()
    time_limit: float = 2.0
    legal: range = range(11)


FORBIDDEN = ("forbidden operation",)
INTERFERED = ("interfered",)

CASES = [
    # Time: the kernel's CPU limit (soft == hard, so SIGKILL) and the parent's own CPU accounting.
    Case("loop_at_import", "while True:\n    pass\n", "too_slow", ("CPU time",), 0.5),
    Case("loop_in_call", "def final_strategy(s, o):\n    while True:\n        pass\n", "too_slow", (), 0.5),
    Case(
        "slow_total_fast_calls",  # 0.2 ms of CPU per call, on any machine: 2 s for the 10,000
        "import time\ndef final_strategy(s, o):\n    end = time.process_time() + 0.0002\n"
        "    while time.process_time() < end:\n        pass\n    return 4\n",
        "too_slow",
        ("10,000",),
        0.5,
    ),
    Case(
        "finishes_but_over_limit",
        "import time\nwhile time.process_time() < 0.8:\n    pass\n" + OK,
        "too_slow",
        ("0.5 s",),
        0.5,
    ),
    Case(
        "ignore_sigxcpu",
        "import _signal\n_signal.signal(_signal.SIGXCPU, _signal.SIG_IGN)\nwhile True:\n    pass\n",
        "forbidden",
        FORBIDDEN,
        0.5,
    ),
    Case("sleep", "import time\ntime.sleep(30)\n" + OK, "forbidden", FORBIDDEN),
    # Before Linux 5.6 the blocking pool could make this wait without CPU time.
    Case("blocking_random", "import os\nos.getrandom(64, os.GRND_RANDOM)\n" + OK, "forbidden", FORBIDDEN),
    Case(
        "lock_deadlock",
        "import _thread\nlock = _thread.allocate_lock()\nlock.acquire()\nlock.acquire()\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    # Limits and memory.
    Case("import_resource", "import resource\n" + OK, "exception", ("imports resource at line 1",)),
    Case(
        "raise_own_limits",
        ctypes_of_harness("r = sys.modules['__main__'].resource\nr.setrlimit(r.RLIMIT_CPU, (999, 999))\n"),
        "forbidden",
        FORBIDDEN,
    ),
    # Memory bombs stop at about 2 GB, so a limit that failed costs the host that much at most, and
    # the upload then finishes and fails the test.
    Case(
        "memory_bomb_at_import",
        "hog = []\nfor _ in range(2000):\n    hog.append(bytearray(10**6))\n" + OK,
        "too_much_memory",
        ("256 MB", "while loading"),
    ),
    Case(
        "memory_bomb_in_call",
        "def final_strategy(s, o):\n    return len(bytearray(10**9))\n",
        "too_much_memory",
        ("(score 0, opponent 0)",),
    ),
    Case(
        "memory_kept_after_error",
        "import builtins\nbuiltins.hog = []\ndef final_strategy(s, o):\n"
        "    while len(builtins.hog) < 20_000_000:  # about 90 bytes each\n"
        "        builtins.hog.append([s])\n    return 4\n",
        "too_much_memory",
        ("256 MB",),
    ),
    Case(
        "own_memory_error",
        "def final_strategy(s, o):\n    raise MemoryError('my table is full')\n",
        "exception",
        ("final_strategy raised MemoryError at line 2 for (score 0, opponent 0): my table is full",),
    ),
    Case(
        "own_memory_error_at_import",
        "raise MemoryError('no room')\n",
        "exception",
        ("The file raised MemoryError at line 1 while loading: no room",),
    ),
    Case(
        "recursion",
        "def f(n):\n    return f(n + 1)\ndef final_strategy(s, o):\n    return f(0)\n",
        "exception",
        ("RecursionError", "line 2"),
    ),
    Case(
        "recursion_under_a_raised_limit",
        "import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\n"
        "def final_strategy(s, o):\n    return f(0)\n",
        "too_much_memory",
        ("final_strategy recursed too deeply at line 4 for (score 0, opponent 0)", "256 MB"),
    ),
    Case(
        "c_stack_overflow",
        "import sys\nsys.setrecursionlimit(10**6)\nnest = []\nfor _ in range(300000):\n    nest = [nest]\n"
        "repr(nest)\n" + OK,
        "crashed",
        ("SIGSEGV",),
    ),
    Case("import_ctypes", "import ctypes\n" + OK, "exception", ("imports ctypes at line 1", "cannot use")),
    Case(
        "import_numpy",
        "import numpy\n" + OK,
        "exception",
        ("imports numpy at line 1, which strategies cannot use: besides the course's dice, ucb and hog",),
    ),
    Case("import_typing_is_allowed", "import typing\nfrom fractions import Fraction\n" + OK, "accepted", ()),
    Case("segfault", ctypes_of_harness("C.string_at(0)\n"), "crashed", ("SIGSEGV",)),
    Case(
        "executable_memory",
        ctypes_of_harness("libc = C.CDLL(None)\nlibc.mmap(None, 4096, 7, 0x22, -1, 0)\n"),
        "forbidden",
        FORBIDDEN,
    ),
    # Processes and threads (the fork bomb is bounded: 32 processes even if it ran unconfined).
    Case("fork_bomb", "import os\nfor _ in range(5):\n    os.fork()\n" + OK, "forbidden", FORBIDDEN),
    Case(
        "thread_bomb",
        "import _thread\nfor _ in range(20):\n    _thread.start_new_thread(print, ())\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case("import_threading", "import threading\n" + OK, "exception", ("threading",)),
    Case("os_system", "import os\nos.system('touch {host}/pwned')\n" + OK, "forbidden", FORBIDDEN),
    Case("import_subprocess", "import subprocess\n" + OK, "exception", ("subprocess",)),
    Case(
        "posix_spawn",
        "import os\nos.posix_spawn('/bin/sh', ['sh', '-c', 'touch {host}/pwned'], {})\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case(
        "execv",
        "import os\nos.execv('/bin/sh', ['sh', '-c', 'touch {host}/pwned'])\n",
        "forbidden",
        FORBIDDEN,
    ),
    Case("signal_parent", "import os\nos.kill({parent}, 0)\n" + OK, "forbidden", FORBIDDEN),
    # Another process's CPU clock, (~pid << 3) | 2: the kernel checks no permission, so it would show
    # every process on the machine and let two runs signal each other through their CPU use.
    Case(
        "cpu_clock_of_parent",
        "import time\ntime.clock_gettime((~{parent} << 3) | 2)\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case(
        "cpu_clocks_of_every_pid",
        "import time\nfor pid in range(1, 100):\n    try:\n        time.clock_gettime((~pid << 3) | 2)\n"
        "    except OSError:\n        pass\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case(
        "clock_of_a_device", "import time\ntime.clock_gettime((~3 << 3) | 3)\n" + OK, "forbidden", FORBIDDEN
    ),
    Case("clock_id_past_tai", "import time\ntime.clock_gettime(12)\n" + OK, "forbidden", FORBIDDEN),
    Case(
        "os_without_import",
        "wrap = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0]\n"
        "wrap.__init__.__globals__['system']('touch {host}/pwned')\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    # Network.
    Case("import_socket", "import socket\n" + OK, "exception", ("socket",)),
    Case(
        "socket_to_localhost",
        ctypes_of_harness(
            "libc = C.CDLL(None)\nfd = libc.socket(2, 1, 0)\n"
            "address = bytes([2, 0]) + ({port}).to_bytes(2, 'big') + bytes([127, 0, 0, 1]) + bytes(8)\n"
            "libc.connect(fd, address, 16)\n"
        ),
        "forbidden",
        FORBIDDEN,
    ),
    # Files: the bot's secrets and database, and the system's.
    Case("read_dotenv_here", "open('.env').read()\n" + OK, "forbidden", FORBIDDEN),
    Case("read_dotenv_of_bot", "raise ValueError(open('{host}/.env').read())\n", "forbidden", FORBIDDEN),
    Case("etc_passwd", "raise ValueError(open('/etc/passwd').read())\n", "forbidden", FORBIDDEN),
    Case(
        "parent_environ",
        "raise ValueError(open('/proc/{parent}/environ', 'rb').read())\n",
        "forbidden",
        FORBIDDEN,
    ),
    Case(
        "own_environ", "raise ValueError(open('/proc/self/environ', 'rb').read())\n", "forbidden", FORBIDDEN
    ),
    # Only what the child's own interpreter sets (PEP 538 locale coercion) is in its environment.
    Case(
        "environ_is_empty",
        "import os\nassert set(os.environ) <= {'LC_CTYPE'}, dict(os.environ)\n" + OK,
        "accepted",
    ),
    Case(
        "write_sqlite",
        "with open('{host}/hog.sqlite3', 'r+b') as db:\n    db.write(b'garbage')\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case("truncate_sqlite", "import os\nos.truncate('{host}/hog.sqlite3', 0)\n" + OK, "forbidden", FORBIDDEN),
    Case("create_file", "open('{host}/pwned', 'w').write('x')\n" + OK, "forbidden", FORBIDDEN),
    Case("list_root", "import os\nos.listdir('/')\n" + OK, "forbidden", FORBIDDEN),
    Case(
        "import_via_sys_path",
        "import sys\nsys.path.append('/usr/lib')\nimport json\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    # Inherited descriptors and the standard streams.
    Case(
        "write_inherited_fds",
        "import os\nfor fd in range(3, 21):\n    os.write(fd, b'x')\n" + OK,
        "forbidden",
        ("forbidden",),
    ),
    Case(
        "read_inherited_fds",
        "import os\nfor fd in range(3, 21):\n    os.read(fd, 1)\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case("read_stdin_fd", "import os\nos.read(0, 100)\n" + OK, "forbidden", FORBIDDEN),
    Case("input", "input()\n" + OK, "keyboard", ("reads from the keyboard at line 1 while loading",)),
    Case(
        "input_in_a_call",
        "def final_strategy(s, o):\n    return int(input('dice? '))\n",
        "keyboard",
        ("final_strategy reads from the keyboard at line 2", "cannot use input()"),
    ),
    # The course's modules are ours and reach nothing the filter forbids (hog loads numpy and the engine).
    Case(
        "hog_numpy_reads_a_file",
        "import hog\nimport numpy\nnumpy.fromfile('{host}/canary.txt')\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case(
        "hog_numpy_writes_a_file",
        "import hog\nimport numpy\nnumpy.zeros(3).tofile('{host}/pwned')\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case(
        "hog_loader_reads_its_own_source",
        "import hog\nhog.__spec__.loader.get_data(hog.__file__)\n" + OK,
        "forbidden",
        FORBIDDEN,
    ),
    Case(  # the solver's tables are files: the course API's own final_strategy cannot read them here
        "hog_final_strategy_would_read_the_solvers_files",
        "import hog\ndef final_strategy(s, o):\n    return hog.final_strategy(s, o)\n",
        "forbidden",
        FORBIDDEN,
    ),
    Case("ucb_interact_opens_nothing", "from ucb import interact, main\ninteract()\n" + OK, "accepted"),
    Case("dice_stand_in_spoiled_harms_only_itself", "import dice\ndice.__dict__.clear()\n" + OK, "accepted"),
    Case("write_stdout_fd", "import os\nos.write(1, b'x' * 100)\n" + OK, "forbidden", FORBIDDEN),
    # Forging the result channel.
    Case("exit_early", "import os\nos._exit(0)\n", "crashed", ("ended the evaluation early",)),
    Case("sys_exit", "import sys\nsys.exit(0)\n", "exception", ("SystemExit", "line 2")),
    Case(
        "forged_report_wrong_nonce",
        steal_job("os.write(job.result_fd, b'HOG1 0\\ntable 4\\nEND\\n')\nos._exit(0)\n"),
        "forbidden",
        INTERFERED,
    ),
    Case(
        "junk_on_result_pipe",
        steal_job("os.write(job.result_fd, b'junk')\nreturn 4\n"),
        "forbidden",
        INTERFERED,
    ),
    Case(
        "flood_result_pipe",
        steal_job("while True:\n    os.write(job.result_fd, b'x' * 65536)\n"),
        "forbidden",
        INTERFERED,
    ),
    Case(
        "forged_unavailable",
        steal_job(
            "os.write(job.result_fd, ('HOG1 ' + job.nonce + '\\nunavailable x41\\nEND\\n').encode())\n"
            "os._exit(0)\n"
        ),
        "forbidden",
        INTERFERED,
    ),
    Case(
        "harness_builtins_faked",  # the harness now lets True through; the parent's parse does not
        "import builtins\nbuiltins.type = lambda value: int\ndef final_strategy(s, o):\n    return True\n",
        "forbidden",
        INTERFERED,
    ),
    # Return values.
    Case(
        "too_big", "def final_strategy(s, o):\n    return 11\n", "illegal_value", ("returned 11", "0 to 10")
    ),
    Case(
        "below_range",
        "def final_strategy(s, o):\n    return -2\n",
        "illegal_value",
        ("returned -2 at (0, 0): it must return 0 to 10 (or -1).",),
        legal=range(-1, 11),
    ),
    Case(
        "minus_one_not_legal", "def final_strategy(s, o):\n    return -1\n", "illegal_value", ("returned -1",)
    ),
    Case("none", "def final_strategy(s, o):\n    pass\n", "illegal_value", ("returned None",)),
    Case("float", "def final_strategy(s, o):\n    return 3.0\n", "illegal_value", ("returned 3.0",)),
    Case("bool", "def final_strategy(s, o):\n    return True\n", "illegal_value", ("returned True",)),
    Case("str", "def final_strategy(s, o):\n    return '3'\n", "illegal_value", ("returned '3'",)),
    Case("huge_int", "def final_strategy(s, o):\n    return 10**100\n", "illegal_value", ("huge int",)),
    Case(
        "int_subclass",
        "class Sneaky(int):\n    def __repr__(self):\n        return '@everyone'\n"
        "def final_strategy(s, o):\n    return Sneaky(4)\n",
        "illegal_value",
        ("returned 4", "instance of Sneaky"),
    ),
    Case("list", "def final_strategy(s, o):\n    return [4]\n", "illegal_value", ("object of type list",)),
    Case(
        "one_bad_pair",
        "def final_strategy(s, o):\n    return 12 if (s, o) == (42, 17) else 4\n",
        "illegal_value",
        ("returned 12 at (42, 17)",),
    ),
    # Exceptions: the upload's own line and message, nothing of the harness.
    Case(
        "zero_division",
        "def final_strategy(s, o):\n    if (s, o) == (3, 5):\n        return 1 / 0\n    return 4\n",
        "exception",
        ("final_strategy raised ZeroDivisionError at line 3 for (score 3, opponent 5): division by zero",),
    ),
    Case(
        "name_error_at_import",
        "import math\n\nprint(undefined_name)\n",
        "exception",
        ("The file raised NameError at line 3 while loading", "undefined_name"),
    ),
    Case(
        "mentions_in_message",
        "def final_strategy(s, o):\n    raise ValueError('@everyone @here <@123> <#456>\\nping')\n",
        "exception",
        ("@\u200beveryone @\u200bhere <@\u200b123> <\u200b#456> ping",),
    ),
    Case(
        "str_of_exception_raises",
        "class Bad(Exception):\n    def __str__(self):\n        raise RuntimeError\n"
        "def final_strategy(s, o):\n    raise Bad\n",
        "exception",
        ("raised Bad at line 5",),
    ),
    Case(
        "keyboard_interrupt",
        "def final_strategy(s, o):\n    raise KeyboardInterrupt\n",
        "exception",
        ("KeyboardInterrupt",),
    ),
    # Determinism: re-calls in the same child, and a second fresh child.
    Case(
        "random_choice",
        "import random\ndef final_strategy(s, o):\n    return random.randint(0, 10)\n",
        "not_deterministic",
        ("not deterministic",),
    ),
    Case(
        "stateful_counter",
        "calls = 0\ndef final_strategy(s, o):\n    global calls\n    calls += 1\n    return calls % 11\n",
        "not_deterministic",
        ("depend only on the two scores",),
    ),
    Case(
        "random_table_at_import",
        "import random\nTABLE = [random.randrange(11) for _ in range(10000)]\n"
        "def final_strategy(s, o):\n    return TABLE[s * 100 + o]\n",
        "not_deterministic",
        ("in one run", "in another"),
    ),
    # Malformed files.
    Case(
        "syntax_error", "import math\n\ndef final_strategy(s, o)\n    return 4\n", "syntax_error", ("line 3",)
    ),
    Case(
        "indentation", "def final_strategy(s, o):\nreturn 4\n", "syntax_error", ("line 2", "indented block")
    ),
    Case("null_byte", "x = 1\0\n" + OK, "syntax_error", ("null bytes",)),
    Case(
        "no_final_strategy", "def strategy(s, o):\n    return 4\n", "no_final_strategy", ("final_strategy",)
    ),
    Case("one_argument", "def final_strategy(score):\n    return 4\n", "wrong_signature", ("1 positional",)),
    Case(
        "three_arguments", "def final_strategy(a, b, c):\n    return 4\n", "wrong_signature", ("missing 1",)
    ),
    Case(
        "keyword_only", "def final_strategy(*, score, opponent):\n    return 4\n", "wrong_signature", ("two",)
    ),
    Case("not_a_function", "final_strategy = 4\n", "wrong_signature", ("not a function",)),
    # TEAM_NAME: a plain str of 1 to 80 characters with something visible in it, or a clear refusal.
    Case(
        "team_name_a_number",
        "TEAM_NAME = 3\n" + OK,
        "bad_team_name",
        ("TEAM_NAME must be one line of 1 to 80 characters, not 3.",),
    ),
    Case(
        "team_name_ten_thousand_characters",
        "TEAM_NAME = 'x' * 10_000\n" + OK,
        "bad_team_name",
        ("not a string of 10000 characters.",),
    ),
    Case("team_name_two_lines", "TEAM_NAME = 'a\\nb'\n" + OK, "bad_team_name", ("line break",)),
    Case("team_name_invisible", "TEAM_NAME = '\\u200b\\u2800'\n" + OK, "bad_team_name", ("no visible",)),
    Case(
        "team_name_str_subclass",
        "class Name(str):\n    def __len__(self):\n        return 3\nTEAM_NAME = Name('x' * 500)\n" + OK,
        "bad_team_name",
        ("an instance of Name",),
    ),
    Case(
        "team_name_mentions_in_a_list",
        "TEAM_NAME = ['@everyone']\n" + OK,
        "bad_team_name",
        ("an object of type list",),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hostile_upload(sandbox: Evaluate, host: Host, case: Case) -> None:
    verdict = sandbox(case.source, case.time_limit, case.legal)
    assert verdict.kind == case.kind, verdict.reason
    assert verdict.accepted == (case.kind == "accepted")
    for word in case.words:
        assert word in (verdict.reason or "")
    assert not (host.path / "pwned").exists()


def test_not_utf8_is_refused_with_its_line(sandbox: Evaluate, host: Host) -> None:
    verdict = sandbox(b"# caf\xc3\xa9\nx = '\xff'\n" + OK.encode())
    assert (verdict.kind, verdict.reason) == (
        "not_utf8",
        "The file is not valid UTF-8 (first bad byte on line 2).",
    )
    assert host.spawned == []


def test_oversized_file_is_refused_before_spawning(sandbox: Evaluate, host: Host) -> None:
    verdict = sandbox(OK + "#" * 1_000_001)
    assert verdict.kind == "too_large" and "1 MB" in (verdict.reason or "")
    assert host.spawned == []


def test_printed_fake_table_does_not_count(sandbox: Evaluate) -> None:
    fake = "HOG1 0\\ntable " + ",".join(["1"] * 10_000) + "\\nEND"
    verdict = sandbox(
        f"import sys\nprint('{fake}')\nprint('{fake}', file=sys.stderr)\n" + OK.replace("4", "5")
    )
    assert verdict.accepted and verdict.table == ((5,) * 100,) * 100


def test_atexit_handler_never_runs(sandbox: Evaluate) -> None:
    verdict = sandbox("import atexit, os\natexit.register(os.write, 1, b'table')\n" + OK)
    assert verdict.accepted and verdict.table == ((4,) * 100,) * 100


def test_stdout_flood_is_discarded(sandbox: Evaluate) -> None:
    verdict = sandbox("for i in range(200_000):\n    print('x' * 100, i)\n" + OK)
    assert verdict.accepted


def test_forged_report_with_stolen_nonce_is_only_a_table(sandbox: Evaluate) -> None:
    """In-process code can find the nonce and forge a report (see docs/sandbox.md); the parent still only
    accepts a full table of legal ints agreeing with a second run, i.e. what `return 7` would give."""
    forge = (
        "report = 'HOG1 ' + job.nonce + '\\ntable x ' + ','.join(['7'] * n) + '\\nEND\\n'\n"
        "os.write(job.result_fd, report.encode())"
    )
    verdict = sandbox(
        steal_job("n = 10000 if job.mode == 'sweep' else len(job.pairs)\n" + forge + "\nos._exit(0)\n")
    )
    assert verdict.accepted and verdict.table == ((7,) * 100,) * 100


INVISIBLE = "\u3164\u115f\uffa0\u061c\u200d\U000e0041\U000e007f"


def test_reasons_cannot_link_fence_or_hide_text_in_discord(sandbox: Evaluate) -> None:
    verdict = sandbox(
        f"Nitro = type('[nitro](https://evil.example){INVISIBLE}', (Exception,), {{}})\n"
        "def final_strategy(s, o):\n"
        f"    raise Nitro('```{INVISIBLE}\\n[claim it](<https://evil.example>) </ban:1> ```')\n"
    )
    reason = verdict.reason or ""
    assert verdict.kind == "exception" and "claim it" in reason and "evil.example" in reason
    assert "](" not in reason and "``" not in reason and "</" not in reason
    assert not set(INVISIBLE) & set(reason)


def test_too_slow_in_the_second_run_reports_that_runs_cpu_time(sandbox: Evaluate) -> None:
    verdict = sandbox(steal_job("while job.mode == 'sample':\n    pass\nreturn 4\n"), 0.5)
    assert (verdict.kind, verdict.reason) == (
        "too_slow",
        "A strategy has 0.5 s of CPU time to load and answer 200 calls in a second run (the file loaded "
        "again, to check it answers the same), and this file ran out of time there: time that changes from "
        "run to run usually means random simulations; make final_strategy decide from the two scores.",
    )
    assert verdict.cpu_seconds >= 0.5  # the sweep itself took a few milliseconds


def test_reasons_are_short_single_lines(sandbox: Evaluate) -> None:
    verdict: Verdict = sandbox("def final_strategy(s, o):\n    raise ValueError('spam ' * 10000)\n")
    assert verdict.kind == "exception"
    assert verdict.reason is not None and len(verdict.reason) < 300

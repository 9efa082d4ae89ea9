"""Fixtures for sandbox tests: a fake bot host full of canaries, and a checked way to evaluate uploads.

Hostile uploads only ever aim at this tmp host (its files, its 127.0.0.1 socket), so a sandbox
failure shows up as a changed canary and a failing test, not as harm to the machine.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hogengine.sandbox import Verdict, evaluate_strategy

from .sandbox_support import Evaluate, Host, processes_in_sessions


@pytest.fixture
def host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> Iterator[Host]:
    """A bot directory with .env, a SQLite database and a canary file, a secret in the environment, a
    listening socket; afterwards asserts nothing changed, leaked, stayed behind or connected."""
    path = tmp_path / "bot"
    path.mkdir()
    token = "canary-" + os.urandom(12).hex()
    (path / ".env").write_text(f"DISCORD_TOKEN={token}\n")
    (path / "canary.txt").write_text("do not touch\n")
    with sqlite3.connect(path / "hog.sqlite3") as db:
        db.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY, winner TEXT)")
        db.execute("INSERT INTO matches (winner) VALUES ('alice')")
    db.close()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.chdir(path)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    spied = Host(path, token, listener.getsockname()[1], listener)

    class SpyPopen(subprocess.Popen[bytes]):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            spied.spawned.append(self.pid)
            spied.spawned_by_thread.setdefault(threading.get_ident(), []).append(self.pid)

    monkeypatch.setattr(subprocess, "Popen", SpyPopen)
    before = spied.snapshot()
    yield spied
    with pytest.raises(BlockingIOError):
        listener.accept()
    listener.close()
    assert spied.snapshot() == before
    assert list(scratch.iterdir()) == []
    assert processes_in_sessions(spied.spawned) == []
    out, err = capfd.readouterr()
    assert token not in out + err


@pytest.fixture
def sandbox(host: Host) -> Evaluate:
    """evaluate_strategy on source text with {host}, {port}, {parent} filled in; checks the verdict leaks
    no secret and that nothing in the children's sessions outlived the call."""

    def evaluate(
        source: str | bytes, time_limit: float = 2.0, legal: range = range(11), random_tables: int = 0
    ) -> Verdict:
        if isinstance(source, str):
            filled = source.replace("{host}", str(host.path)).replace("{port}", str(host.port))
            source = filled.replace("{parent}", str(os.getpid())).encode()
        verdict = evaluate_strategy(source, legal, time_limit, random_tables=random_tables)
        assert host.token not in json.dumps(verdict.to_json())
        assert processes_in_sessions(host.spawned_by_thread.get(threading.get_ident(), [])) == []
        if verdict.reason is not None:
            assert "\n" not in verdict.reason
        return verdict

    return evaluate

"""A real PostgreSQL server for the tests, started with the machine's own `initdb`/`pg_ctl` in a temporary
folder, listening on loopback and a Unix socket of its own. As root it runs as the `postgres` user (the
server refuses root). Each test gets a database of its own; a server that cannot start fails the tests
that need it, with the server's log, and never skips them."""

import asyncio
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg

from tests.hang import HANG

USER = "hog"
TEMPLATE = "hog_empty"


def _binary(name: str) -> str:
    """The PostgreSQL program on PATH, or in Debian's versioned folder (newest first)."""
    versioned = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)
    found = shutil.which(name) or next(iter(versioned), None)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql).")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One throwaway server: `start()`, `new_database()` per test, `stop()`."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync as in production (benchmarks), or not (tests: nothing need survive)
        self.root = Path(tempfile.mkdtemp(prefix="hog-postgres-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._names = itertools.count()
        self._owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self.paused = False

    def _run(self, *command: str) -> None:
        """Run a server program as the server's user; its output in the error if it fails."""
        owner = self._owner
        done = subprocess.run(
            command,
            check=False,
            capture_output=True,
            text=True,
            timeout=HANG,
            cwd=self.root,
            user=None if owner is None else owner.pw_uid,
            group=None if owner is None else owner.pw_gid,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
        )
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        """Create the cluster and start it."""
        if self._owner is not None:
            os.chown(self.root, self._owner.pw_uid, self._owner.pw_gid)
        self._run(
            _binary("initdb"), "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync", "--no-instructions",
        )  # fmt: skip
        self.resume()
        self._admin(f"CREATE DATABASE {TEMPLATE} TEMPLATE template0")

    def resume(self) -> None:
        """Start the server on its cluster (again, after `pause`), waiting until it takes connections."""
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.root}"
            " -c max_connections=300"
        )
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(_binary("pg_ctl"), "start", "-w", "-t", "60", "-D", str(self.data),
                  "-l", str(self.root / "server.log"), "-o", options)  # fmt: skip
        self.paused = False

    def pause(self) -> None:
        """Stop the server as an operator's restart does (`pg_ctl stop -m fast`: every client is cut off),
        keeping its databases for `resume`."""
        self._run(_binary("pg_ctl"), "stop", "-D", str(self.data), "-m", "fast", "-w")
        self.paused = True

    @contextlib.contextmanager
    def silenced(self) -> Iterator[None]:
        """The server frozen (SIGSTOP) for the block: the postmaster first, so it starts no new backend, then
        every process it started. It answers nothing and refuses nothing: the kernel still accepts new
        connections, which get no handshake, and statements on open ones get no reply."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        frozen: list[int] = []
        try:
            for pid in (postmaster, *_children(postmaster)):
                os.kill(pid, signal.SIGSTOP)
                frozen.append(pid)
            yield
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)

    def stop(self) -> None:
        """Stop at once (nothing is kept), unless paused, and remove the folder."""
        try:
            if not self.paused:
                self._run(_binary("pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"test_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return self.url(name)

    def _admin(self, sql: str) -> None:
        """Run one statement in the server's own database, from a test's event loop or from none."""

        async def run() -> None:
            conn = await asyncpg.connect(self.url("postgres"))
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, run()).result()


def _children(parent: int) -> list[int]:
    """The processes whose parent is `parent` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent_of = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        if parent_of == parent:
            found.append(int(stat.parent.name))
    return found


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    """A server of its own for a `with` block (a fixture's lifetime), stopped however the block ends."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()

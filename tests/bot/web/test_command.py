"""`hog gui` as a person starts it: a real process that prints its address, serves the page on loopback
only, opens the browser unless told not to, refuses what it cannot serve in one line, and stops on Ctrl-C
with exit status 130; hostile requests of every shape get a 4xx, never a server error."""

import contextlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hang import HANG
from tests.helpers import Served


def fetch(url: str, body: bytes | None = None) -> tuple[int, Any]:
    """The status and JSON (or text) of one request, 4xx and 5xx included; a body is declared JSON, as the
    page declares it."""
    request = urllib.request.Request(url, data=body, method="GET" if body is None else "POST")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=HANG) as response:
            status, data, kind = response.status, response.read(), response.headers.get_content_type()
    except urllib.error.HTTPError as error:
        status, data, kind = error.code, error.read(), error.headers.get_content_type()
    return status, json.loads(data) if kind == "application/json" else data.decode()


def hog_gui(*options: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """`hog gui` that is expected to stop by itself (a refusal), with what it printed."""
    return subprocess.run(
        [sys.executable, "-m", "hogengine", "gui", "--no-browser", *options],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
        env={**os.environ, "HOG_CACHE_DIR": str(cache)},
    )


def test_it_prints_its_address_serves_the_page_and_stops_on_ctrl_c_with_130(tmp_path: Path) -> None:
    server = Served(cache=tmp_path)
    try:
        status, page = fetch(server.url)
        assert status == 200 and "<title>Hog</title>" in page
        assert fetch(server.base + "api/setup")[1]["default"] == "swine-align"
    finally:
        code, stderr = server.stop()
    assert code == 130
    assert stderr.strip() == ""  # no traceback, no noise


def test_it_listens_on_loopback_only(served: Served) -> None:
    port = int(served.base.rsplit(":", 1)[1].strip("/"))
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    with pytest.raises(ConnectionRefusedError):  # another loopback address: a server on 0.0.0.0 would answer
        socket.create_connection(("127.0.0.2", port), timeout=5).close()


def test_the_rule_set_it_is_given_is_the_forms_first(tmp_path: Path) -> None:
    server = Served("--rules", "sp17", cache=tmp_path)
    try:
        assert fetch(server.base + "api/setup")[1]["default"] == "pork-chop"
    finally:
        server.stop()


def test_a_record_given_on_the_command_line_opens_in_the_viewer(tmp_path: Path, export_file: Path) -> None:
    server = Served("--replay", str(export_file), cache=tmp_path)
    try:
        assert server.url.endswith("/#replay")
        status, viewed = fetch(server.base + "api/replay")
        assert status == 200 and json.loads(export_file.read_text())["commitment"] in viewed["verdict"]
    finally:
        assert server.stop()[0] == 130


@pytest.mark.parametrize(
    ("options", "status", "said"),
    [
        (["--rules", "chess"], 1, "hog gui: Unknown rules 'chess'. Known rule sets: "),
        (["--replay", "missing.json"], 1, "hog gui: cannot use 'missing.json': No such file or directory"),
        (
            ["--replay", "/dev/zero"],
            1,
            "hog gui: The record is larger than 256 KiB: no game record is that long.",
        ),
        (["--replay", "/"], 1, "hog gui: cannot use '/': Is a directory"),
        (["--port", "65536"], 2, "argument --port: a port is a whole number from 0 to 65535, not 65536"),
        (["--port", "http"], 2, "argument --port: expected a whole number, not 'http'"),
    ],
)
def test_what_cannot_be_served_is_refused_in_one_line(tmp_path, options, status, said) -> None:
    done = hog_gui(*options, cache=tmp_path)
    assert done.returncode == status and done.stdout == ""
    assert said in done.stderr.splitlines()[-1] and "Traceback" not in done.stderr


def test_a_record_hog_replay_refuses_is_refused_before_serving(tmp_path: Path, exported: dict) -> None:
    record = tmp_path / "tampered.json"
    record.write_text(json.dumps(exported | {"commitment": "00" * 32}), encoding="utf-8")
    done = hog_gui("--replay", str(record), cache=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "hog gui: The seed does not match the commitment: its SHA-256 is different.\n"


def test_a_port_already_taken_is_refused_in_one_line(tmp_path: Path, served: Served) -> None:
    port = served.base.rsplit(":", 1)[1].strip("/")
    done = hog_gui("--port", port, cache=tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"hog gui: Cannot serve the page at 127.0.0.1:{port}: Address already in use.\n"


# `hog` with a browser that says where it was opened instead of opening.
WITH_A_BROWSER = (
    sys.executable,
    "-c",
    "import sys, webbrowser\n"
    "from hogengine.cli import main\n"
    "webbrowser.open = lambda url: print('A browser opens', url, flush=True) or True\n"
    "sys.exit(main(sys.argv[1:]))\n",
)


def test_it_opens_the_browser_at_the_address_it_prints(tmp_path: Path) -> None:
    server = Served(cache=tmp_path, hog=WITH_A_BROWSER, browser=True)
    try:
        assert server.process.stdout is not None
        opened = server.process.stdout.readline()
    finally:
        code, _ = server.stop()  # a person's browser opened, then they press Ctrl-C
    assert opened == f"A browser opens {server.url}\n" and code == 130


def held_request(port: int, body_sent: bytes = b'{"rules": ') -> socket.socket:
    """A POST whose handler has begun (the server said 100 Continue) and whose body stops half-way: the
    client holds it, as a stalled or hostile one may."""
    client = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = (
        f"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\nExpect: 100-continue\r\n\r\n"
    )
    client.sendall(head.encode())
    assert client.recv(100).startswith(b"HTTP/1.1 100 Continue")
    client.sendall(body_sent)
    return client


def test_ctrl_c_stops_it_at_once_whatever_clients_hold(tmp_path: Path) -> None:
    """A half-sent body, half-sent headers and an idle connection: Ctrl-C closes them all at once (0.5-0.8 s
    measured on a loaded machine; aiohttp by itself waits 60 s for the body), and the server ends with 130,
    saying nothing. The test allows a third of aiohttp's wait, so a busy machine cannot fail it."""
    server = Served(cache=tmp_path)
    port = int(server.base.rsplit(":", 1)[1].strip("/"))
    body = held_request(port)
    headers = socket.create_connection(("127.0.0.1", port), timeout=30)
    headers.sendall(b"GET /api/setup HTTP/1.1\r\nHost: 127.0")
    idle = socket.create_connection(("127.0.0.1", port), timeout=30)
    with body, headers, idle:
        body.settimeout(20)
        server.process.send_signal(signal.SIGINT)
        with contextlib.suppress(ConnectionResetError):  # closed by the server, not answered
            assert body.recv(100) == b""
        code, stderr = server.outcome()
    assert code == 130 and stderr.strip() == ""


@pytest.mark.parametrize("abort", [True, False], ids=["reset", "closed"])
def test_a_client_that_gives_up_mid_upload_is_no_server_failure(tmp_path: Path, abort: bool) -> None:
    server = Served(cache=tmp_path)
    port = int(server.base.rsplit(":", 1)[1].strip("/"))
    try:
        client = held_request(port)
        if abort:  # a reset, as a browser tab closed mid-upload may send
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        assert fetch(server.base + "api/setup")[0] == 200  # the server has read past the closed one
    finally:
        code, stderr = server.stop()
    assert code == 130
    assert stderr.strip() == ""  # no traceback, no "failed", nothing at all


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
BODIES = st.binary(max_size=200) | JSON.map(lambda value: json.dumps(value).encode())
MOVE_LIKE = st.fixed_dictionaries({"turn": JSON, "choice": JSON}).map(
    lambda value: json.dumps(value).encode()
)


@settings(max_examples=150, deadline=None)
@given(body=BODIES, endpoint=st.sampled_from(["games", "moves", "replay"]))
def test_no_request_body_gets_a_server_error(served: Served, body: bytes, endpoint: str) -> None:
    if endpoint == "moves":
        game = fetch(served.base + "api/games", json.dumps({"rules": "pig-fest", "goal": 10}).encode())[1]
        url = served.base + f"api/games/{game['id']}/moves"
    else:
        url = served.base + f"api/{endpoint}"
    status, answer = fetch(url, body)
    assert status in (200, 201) or (400 <= status < 500 and isinstance(answer, dict) and answer["error"])

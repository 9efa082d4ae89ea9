"""`hog gui`: Hog in your browser, against a friend at the same screen or the house (easy, course,
perfect), and a viewer that steps through any recorded game with its win chances. The server listens on
127.0.0.1 only and keeps nothing once stopped (Ctrl-C)."""

import argparse
import asyncio
import socket
import webbrowser
from pathlib import Path

from bot.domain.errors import CannotListen
from hogengine.cli.arguments import whole
from hogengine.cli.solved import cache_dir
from hogengine.replay import load_record, read_record, replay
from hogengine.rules import DEFAULT_RULES, get_rules

HOST = "127.0.0.1"
MAX_PORT = 65535


def port(text: str) -> int:
    """A TCP port number, 0 for any free one."""
    number = whole(text)
    if not 0 <= number <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 0 to {MAX_PORT}, not {number}")
    return number


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `hog gui` (the `hog.commands` entry point of this package)."""
    parser = subparsers.add_parser(
        "gui", help="play Hog in your browser, or watch a game again", description=__doc__
    )
    parser.add_argument(
        "--rules", default=DEFAULT_RULES, help=f"the rule set the page starts on ({DEFAULT_RULES})"
    )
    parser.add_argument("--port", type=port, default=0, help="the port on 127.0.0.1 (default: any free one)")
    parser.add_argument("--no-browser", action="store_true", help="only print the page's address")
    parser.add_argument(
        "--replay", metavar="FILE.json", help="open this record (/hog export, hog play's) in the viewer"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve the page until Ctrl-C (which `hog` turns into exit status 130); a record larger than any
    game's or that `hog replay` refuses, or a port that cannot be had, stops it before it starts."""
    rules = get_rules(args.rules)
    record = None
    if args.replay is not None:
        with Path(args.replay).open("rb") as file:
            record = read_record(file)
        list(replay(load_record(record)))  # refused now, in hog replay's words, not later on the page
    listener = _listen(args.port)
    address = f"http://{HOST}:{listener.getsockname()[1]}/" + ("#replay" if record is not None else "")
    asyncio.run(_serve(listener, address, rules.id, record, open_browser=not args.no_browser))
    return 0


def _listen(number: int) -> socket.socket:
    """A socket listening on loopback only: the page is for this machine's browser."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind((HOST, number))
    except OSError as error:
        listener.close()
        raise CannotListen(HOST, number, error.strerror or str(error)) from None
    return listener


async def _serve(
    listener: socket.socket, address: str, rules: str, record: bytes | None, *, open_browser: bool
) -> None:
    """Run the server on `listener` until cancelled (Ctrl-C), then close it."""
    from aiohttp import web  # noqa: PLC0415 - aiohttp and the solver load only when the page is served

    from bot.services.solver import Solver  # noqa: PLC0415
    from bot.web.server import make_app, make_runner  # noqa: PLC0415

    runner = make_runner(make_app(Solver(cache_dir()), rules, record))
    await runner.setup()
    try:
        await web.SockSite(runner, listener).start()
        print(f"Hog is served at {address} (Ctrl-C stops it).", flush=True)
        if open_browser:
            await asyncio.to_thread(webbrowser.open, address)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()

"""The Activity outside Discord, for working on it: the tests' fake Discord (its parent frame plays
Discord's client around the page, as the SDK's DiscordSDKMock stands in for it) and `python -m bot` serving
the Activity against it, an instance with two people in it. Open each person's address in a browser (two
windows, or a phone and a desk) and play; the channel's board is printed as the bot edits it. Ctrl-C stops.

    python -m tests.bot.activity.local [--port 8090]
"""

import argparse
import asyncio
import contextlib
import signal
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from tests.bot.activity.conftest import CHANNEL_ID, PARENT, footer, serving
from tests.bot.discord.fake_discord import APP_ID, GUILD_ID, FakeDiscord
from tests.bot.discord.over_sockets import ALICE, BOB, spawn_bot


async def echo(stream: asyncio.StreamReader | None) -> None:
    """The bot's log, as it comes, on our own standard error."""
    while stream is not None and (line := await stream.readline()):
        sys.stderr.write(line.decode())


async def serve(port: int) -> int:
    fake = FakeDiscord(parent=PARENT)
    fake.enable_activities()
    await fake.start()
    activity = f"http://127.0.0.1:{port}"
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, stopping.set)
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    with tempfile.TemporaryDirectory() as folder:
        bot = await spawn_bot(fake.url, Path(folder), **serving(fake, port))
        logged = asyncio.create_task(echo(bot.stderr))
        try:
            await fake.connected(timeout=120)
            instance = fake.start_activity(CHANNEL_ID, GUILD_ID, [ALICE, BOB])
            for person in (ALICE, BOB):
                fake.people[int(person["id"])] = person
                query = {
                    "activity": activity + "/",
                    "client": str(APP_ID),
                    "user": person["id"],
                    "instance": instance,
                    "guild": str(GUILD_ID),
                    "channel": str(CHANNEL_ID),
                }
                print(f"{person['username']}: {fake.url}/parent?{urlencode(query)}", flush=True)
            shown = ""
            while not stopping.is_set():
                boards = [message for message in fake.messages.values() if footer(message)]
                latest = footer(boards[-1]) if boards else ""
                if latest != shown:
                    print(f"the channel's board: {latest}", flush=True)
                    shown = latest
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), 0.5)
        finally:
            bot.send_signal(signal.SIGTERM)
            await bot.wait()
            await logged
            await fake.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.activity.local", description=__doc__)
    parser.add_argument("--port", type=int, default=8090, help="the Activity's port on 127.0.0.1")
    return asyncio.run(serve(parser.parse_args().port))


if __name__ == "__main__":
    sys.exit(main())

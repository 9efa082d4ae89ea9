"""`python -m bot` (`make run`): settings, JSON logs, then the Discord bot until SIGTERM or Ctrl-C."""

import argparse
import asyncio
import json
import logging
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from bot.config import Settings, postgresql_url
from bot.health import ailment

HOW_TO = """\
hogbot needs a Discord bot token to connect.
  1. Get one: https://discord.com/developers/applications -> your application -> Bot -> Reset Token.
  2. Put it in {where}:  DISCORD_TOKEN=<the token>
     (.env.example lists every setting; set HOG_DEV_GUILD_ID to see the commands at once in your server).
  3. Invite the bot with the `bot` and `applications.commands` scopes, then {again}.
Games will be kept in {{database}}.
No token at hand? Try the game offline: {play}
"""
# The Docker image sets this (Dockerfile): there is no make in it, and compose reads the .env beside it.
IN_IMAGE = "HOGBOT_IMAGE"
HOW_TO_HERE = HOW_TO.format(
    where="a file named .env where you start the bot", again="`make run` again", play="make play"
)
HOW_TO_IN_IMAGE = HOW_TO.format(
    where="the .env file beside docker-compose.yml (compose reads it)",
    again="`docker compose up -d` again",
    play="docker compose run --rm bot hog play",
)
CONTEXT = ("command", "user", "channel", "match")


class JsonLines(logging.Formatter):
    """One JSON object per log line, with the context the bot attaches (command, user, channel, match)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry |= {key: getattr(record, key) for key in CONTEXT if getattr(record, key, None) is not None}
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.basicConfig(level=level, handlers=[handler], force=True)
    # A library's notes are not the bot's: matplotlib says "generated new fontManager" on a first start.
    logging.getLogger("matplotlib").setLevel(max(logging.WARNING, logging.getLogger().level))


def run(settings: Settings, token: str, sync_global: bool) -> int:
    """Run the bot until SIGTERM or Ctrl-C; the exit status."""
    # Imported here, not at the top: the health check runs every minute and needs none of Discord.
    from bot.activity.server import CannotServeError  # noqa: PLC0415
    from bot.discord import DiscordUnreachableError, HogBot, TokenRejectedError, serve  # noqa: PLC0415
    from bot.storage import DatabaseUnavailableError, MigrationError  # noqa: PLC0415

    try:
        asyncio.run(serve(HogBot(settings, sync_global=sync_global), token))
    except TokenRejectedError:
        print(
            "Discord refused the token: reset it (Bot -> Reset Token) and update DISCORD_TOKEN.",
            file=sys.stderr,
        )
        return 1
    except DiscordUnreachableError as error:  # no route, DNS or a firewall: nothing the bot can fix
        print(f"hogbot cannot reach Discord: {error}: check the network.", file=sys.stderr)
        return 3
    except MigrationError as error:  # the database cannot be brought up to date: nothing can be stored
        print(f"hogbot cannot start: {error}", file=sys.stderr)
        return 1
    except (DatabaseUnavailableError, CannotServeError) as error:  # a wrong setting: a database, a port
        print(f"hogbot cannot start: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def copy(path: Path, url: str) -> int:
    """`--copy-to URL`: the SQLite file's rows into a new PostgreSQL database; the exit status."""
    from bot.storage import DatabaseUnavailableError, MigrationError  # noqa: PLC0415
    from bot.storage.copy import CopyRefusedError, copy_file_to  # noqa: PLC0415
    from bot.storage.postgres import redacted  # noqa: PLC0415

    try:
        url = postgresql_url(url)
    except ValueError as error:
        print(f"--copy-to: the target {error} (or set HOG_DATABASE_URL)", file=sys.stderr)
        return 2
    if not path.is_file():
        print(f"Nothing to copy: there is no SQLite database at {path} (HOG_DATABASE_PATH).", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(copy_file_to(path, url, lambda table, rows: print(f"  {table}: {rows} rows")))
    except DatabaseUnavailableError as error:
        print(f"Cannot copy: {error}", file=sys.stderr)
        return 2
    except (CopyRefusedError, MigrationError) as error:
        print(f"Cannot copy: {error} Nothing was written.", file=sys.stderr)
        return 1
    print(f"Copied {copied} rows from {path} to {redacted(url)}.")
    print("Set HOG_DATABASE_URL to it, then start the bot.")
    return 0


def backup(settings: Settings, target: Path) -> int:
    """`--backup PATH`: a consistent copy of the SQLite file, by SQLite's online backup (safe while the bot
    runs and writes), as one self-contained file; the exit status."""
    from bot.storage.backup import back_up  # noqa: PLC0415 (the health check needs no storage)

    source = settings.database_path
    if settings.database_url is not None:
        print(
            "--backup copies the SQLite file, but HOG_DATABASE_URL is set: back PostgreSQL up with pg_dump.",
            file=sys.stderr,
        )
        return 2
    if not source.is_file():
        print(
            f"Nothing to back up: there is no SQLite database at {source} (HOG_DATABASE_PATH).",
            file=sys.stderr,
        )
        return 2
    if target.exists():
        print(f"Cannot back up to {target}: it already exists. Nothing was written.", file=sys.stderr)
        return 2
    try:
        back_up(source, target)
    except (sqlite3.Error, OSError) as error:
        print(f"Cannot back up {source} to {target}: {error}. Nothing was written.", file=sys.stderr)
        return 1
    print(f"Backed up {source} to {target}.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--sync-global",
        action="store_true",
        help="publish the commands to every server (slow; once per release)",
    )
    parser.add_argument(
        "--health",
        action="store_true",
        help="exit 0 if a running bot is connected, ticking and reaching its database",
    )
    parser.add_argument(
        "--copy-to",
        metavar="URL",
        nargs="?",
        const="",
        help="copy everything from the SQLite file (HOG_DATABASE_PATH) into a new, empty PostgreSQL database"
        " at URL (default: HOG_DATABASE_URL, which keeps the password out of the shell's history), then exit",
    )
    parser.add_argument(
        "--backup",
        metavar="PATH",
        type=Path,
        help="write a consistent copy of the SQLite file (HOG_DATABASE_PATH) to the new file PATH, even while"
        " the bot runs, then exit",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:  # an operator's typo: one line per setting, naming it; no traceback
        for problem in error.errors():
            field = str(problem["loc"][0])
            name = field if field.isupper() else "HOG_" + field.upper()
            print(f"hogbot cannot start: {name}: {problem['msg']} (see .env.example)", file=sys.stderr)
        return 2
    if args.health:
        why = ailment(settings.heartbeat_file)
        if why is not None:
            print(f"unhealthy: {why}", file=sys.stderr)
        return 0 if why is None else 1
    if args.copy_to is not None:
        return copy(settings.database_path, args.copy_to or settings.database_url or "")
    if args.backup is not None:
        return backup(settings, args.backup)
    configure_logging(settings.log_level)
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        how_to = HOW_TO_IN_IMAGE if os.environ.get(IN_IMAGE) else HOW_TO_HERE
        print(how_to.format(database=settings.database_path), file=sys.stderr)
        return 2
    return run(settings, settings.discord_token.get_secret_value(), args.sync_global)


if __name__ == "__main__":
    sys.exit(main())

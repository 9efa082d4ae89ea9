"""A consistent copy of the bot's SQLite file while the bot may be running (`python -m bot --backup`)."""

import sqlite3
from contextlib import closing
from pathlib import Path


def back_up(source: Path, target: Path) -> None:
    """Copy `source` into a new file `target` by SQLite's online backup (safe while the bot writes), as one
    self-contained file; renamed into place only once whole, so a failure (sqlite3.Error, OSError) leaves
    nothing at `target`."""
    partial = target.with_name(f"{target.name}.partial")
    try:
        with closing(sqlite3.connect(source)) as reading, closing(sqlite3.connect(partial)) as writing:
            reading.backup(writing)
            writing.execute("PRAGMA journal_mode = DELETE")  # the copy in one file, without a -wal beside it
        partial.replace(target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise

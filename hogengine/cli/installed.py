"""What this installation of `hog` holds beyond its own commands: its version, and the commands installed
packages add through the `hog.commands` entry-point group (`hog gui`). Read from the installation's
metadata, which takes a moment to load: only `hog --version`, `hog --help` and a command that is not built
in come here."""

import argparse
import sys
from importlib.metadata import entry_points, version

# Installed packages' own commands: each entry point names a `register(subparsers)` like the built-in ones.
PLUGINS = "hog.commands"


def version_line(prog: str) -> str:
    """`hog --version`'s line."""
    return f"{prog} {version('hogbot')}"


def register_plugins(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add every installed package's commands; one that fails to load or clashes with a command is skipped,
    with one line on stderr (one broken package must not stop every command)."""
    for plugin in sorted(entry_points(group=PLUGINS), key=lambda entry: entry.name):
        try:
            plugin.load()(subparsers)
        except Exception as error:
            print(f"hog: skipped the command {plugin.name} of {plugin.value}: {error}", file=sys.stderr)

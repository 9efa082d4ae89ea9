"""`python -m hogengine` is the `hog` command."""

from hogengine.cli import program

program()

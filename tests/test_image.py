"""The container image's build context: every file a COPY of the Dockerfile names reaches the builder
through `.dockerignore`, and what must stay out (secrets, databases, virtualenvs) does. The file is read
as Docker's and podman's builders read it: a line starting with `#` is a comment; a pattern is cleaned as
a path (a leading `/` dropped); `*` and `?` stop at `/`, `**` spans folders, `[...]` is a class and `\\`
escapes; a pattern that matches a path or one of its parent folders excludes it, a `!` pattern admits it
again, and the last pattern that matches decides. (`make image` builds the image where a builder is
installed; this test needs none.)"""

import json
import posixpath
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WILDCARDS = "*?["


@dataclass(frozen=True)
class Rule:
    """One line of a `.dockerignore`: whether a path matches it, and whether it admits (`!`) or excludes."""

    matches: Callable[[str], bool]
    admits: bool


def _matcher(pattern: str) -> Callable[[str], bool]:
    """Whether a slash-separated path matches a cleaned pattern, as the builders compile one: a pattern
    without wildcards is compared whole; `**` at its start alone is a suffix, at its end alone a prefix;
    anything else becomes a regular expression."""
    regex, kind, index, in_class = "", "exact", 0, False
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            index += 2 + pattern.startswith("/", index + 2)  # `**/` is `**`
            if index == len(pattern):
                regex += ".*"
                kind = "prefix" if kind == "exact" else "regex"
            else:
                regex += "(.*/)?"  # any number of folders, none included
                kind = "regex"
            if regex in (".*", "(.*/)?"):  # the pattern began with it
                kind = "suffix"
            continue
        if char == "\\" and index + 1 < len(pattern):
            regex += re.escape(pattern[index + 1])
            kind, index = "regex", index + 2
            continue
        if char in "[]":
            in_class, kind = char == "[", "regex"
            regex += char
        elif in_class:
            regex += char
        elif char in "*?":
            regex += "[^/]*" if char == "*" else "[^/]"
            kind = "regex"
        else:
            regex += re.escape(char)
        index += 1
    if kind == "exact":
        return lambda path: path == pattern
    if kind == "prefix":
        return lambda path: path.startswith(pattern[:-2])
    if kind == "suffix":
        suffix = pattern[2:]
        return lambda path: path.endswith(suffix) or (suffix.startswith("/") and path == suffix[1:])
    compiled = re.compile(regex)
    return lambda path: compiled.fullmatch(path) is not None


def read_ignore(text: str) -> list[Rule]:
    """The rules of a `.dockerignore`, in order."""
    rules = []
    for line in text.removeprefix("\ufeff").splitlines():
        if line.startswith("#"):  # only where the line starts: " #x" is a pattern
            continue
        pattern = line.strip()
        admits = pattern.startswith("!")
        pattern = pattern.removeprefix("!").strip()
        if not pattern:
            if admits:
                raise ValueError('illegal exclusion pattern: "!"')
            continue
        pattern = posixpath.normpath(re.sub("^/+", "/", pattern))
        if len(pattern) > 1:
            pattern = pattern.removeprefix("/")
        rules.append(Rule(_matcher(pattern), admits))
    return rules


def excluded(rules: list[Rule], path: str) -> bool:
    """Whether the builder leaves `path` (relative to the context, slash-separated) out of the context."""
    parts = path.split("/")
    itself_and_parents = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]
    out = False
    for rule in rules:
        if rule.admits == out and any(rule.matches(name) for name in itself_and_parents):
            out = not rule.admits
    return out


def copy_sources(dockerfile: str) -> list[str]:
    """The sources every COPY and ADD of every stage takes from the build context (not `--from` a stage or
    an image, nor a here-document)."""
    lines = [line for line in dockerfile.splitlines() if not line.lstrip().startswith("#")]
    sources = []
    for instruction in re.sub(r"\\\s*\n", " ", "\n".join(lines)).splitlines():
        keyword, _, rest = instruction.strip().partition(" ")
        if keyword.upper() not in ("COPY", "ADD"):
            continue
        flags = re.findall(r"--\S+", rest)
        arguments = re.sub(r"--\S+", "", rest).strip()
        words = json.loads(arguments) if arguments.startswith("[") else arguments.split()
        if any(flag.startswith("--from") for flag in flags):
            continue
        sources += [word for word in words[:-1] if not word.startswith("<<")]
    return sources


def tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_every_file_the_dockerfile_copies_reaches_the_builder() -> None:
    rules = read_ignore((ROOT / ".dockerignore").read_text(encoding="utf-8"))
    files = tracked()
    sources = copy_sources((ROOT / "Dockerfile").read_text(encoding="utf-8"))
    assert {"pyproject.toml", "hogengine", "bot", "migrations"} <= set(sources)
    for source in sources:
        assert not any(char in source for char in WILDCARDS), f"COPY {source}: teach this test wildcards"
        name = posixpath.normpath(source)
        under = [path for path in files if name in (".", path) or path.startswith(f"{name}/")]
        assert under, f"COPY {source}: the repository holds nothing there"
        left_out = [path for path in under if excluded(rules, path)]
        assert left_out == [], f"COPY {source}: .dockerignore keeps these from the builder"


def test_secrets_databases_and_build_output_stay_out_of_the_context() -> None:
    rules = read_ignore((ROOT / ".dockerignore").read_text(encoding="utf-8"))
    for path in (
        ".env",
        "data/hog.sqlite3",
        "hog.sqlite3-wal",
        ".venv/bin/python",
        ".git/config",
        "bot/__pycache__/config.cpython-311.pyc",
        "migrations/__pycache__/__init__.cpython-311.pyc",
        "hogengine/solver/_kernel.cpython-311-x86_64-linux-gnu.so",
        "tests/conftest.py",
    ):
        assert excluded(rules, path), path


@pytest.mark.parametrize(
    ("ignore", "path", "out"),
    [
        ("*", "bot/config.py", True),  # a parent folder matches
        ("*\n!bot", "bot/config.py", False),  # admitted again
        ("!bot\n*", "bot/config.py", True),  # order: the last match decides
        ("*\n!bot\nbot/secret.txt", "bot/secret.txt", True),
        ("*\n!bot\nbot/secret.txt", "bot/config.py", False),
        ("*.md", "README.md", True),
        ("*.md", "docs/bot.md", False),  # `*` stops at a slash
        ("**/*.md", "docs/bot.md", True),
        ("**/*.md", "README.md", True),  # `**` spans no folder too
        ("**/__pycache__", "bot/services/__pycache__/x.pyc", True),
        ("**/__pycache__", "__pycache__/x.pyc", True),
        ("docs/**\n!docs/keep.md", "docs/keep.md", False),
        ("docs/**\n!docs/keep.md", "docs/other.md", True),
        ("bot**", "bottle.txt", True),  # a prefix
        ("a/**/z", "a/z", True),
        ("a/**/z", "a/b/c/z", True),
        ("a/**/z", "ab/z", False),
        ("/data", "data/hog.sqlite3", True),  # a leading slash is the context's root
        ("bot/", "bot/config.py", True),  # a trailing slash changes nothing
        ("x/../bot", "bot/config.py", True),  # cleaned as a path
        ("te?t.py", "test.py", True),
        ("te?t.py", "te/t.py", False),
        ("[a-c]at", "bat", True),
        ("[a-c]at", "rat", False),
        ("\\*", "*", True),
        ("\\*", "x", False),
        ("a.c", "abc", False),  # a dot is a dot
        ("# comment\nbot", "# comment", False),
        (" #x", "#x", True),  # a comment only where the line starts
        ("bot\n!", "bot", None),
    ],
)
def test_the_rules_are_read_as_the_builders_read_them(ignore: str, path: str, out: bool | None) -> None:
    if out is None:
        with pytest.raises(ValueError, match="illegal exclusion pattern"):
            read_ignore(ignore)
        return
    assert excluded(read_ignore(ignore), path) is out


def test_copy_sources_are_read_from_every_form_of_copy() -> None:
    dockerfile = (
        "FROM python AS build\n"
        "COPY a.toml b.lock /tmp/\n"
        "# COPY commented /nowhere\n"
        "COPY --chown=1:1 src \\\n"
        "     /src/\n"
        'ADD ["with space", "/dst"]\n'
        "COPY <<EOF /etc/x\n"
        "FROM python\n"
        "COPY --from=build /opt/venv /opt/venv\n"
    )
    assert copy_sources(dockerfile) == ["a.toml", "b.lock", "src", "with space"]

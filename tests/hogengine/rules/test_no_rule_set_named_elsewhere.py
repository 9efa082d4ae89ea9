"""Only hogengine/rules/ names a rule set: everything else renders what the rule set declares, so no other
code holds a rule-set id or alias as a string, nor imports a rule-set class to test which one it holds."""

import ast
from pathlib import Path

import pytest

from hogengine.rules import RULE_SETS

ROOT = Path(__file__).resolve().parents[3]
NAMES = {name for rules in RULE_SETS for name in (rules.id, *rules.aliases)}
CLASSES = {type(rules).__name__ for rules in RULE_SETS}
SOURCES = sorted(
    path
    for package in ("bot", "hogengine")
    for path in (ROOT / package).rglob("*.py")
    if (ROOT / "hogengine" / "rules") not in path.parents
)


def test_the_sources_are_found() -> None:
    assert len(SOURCES) > 50 and ROOT / "bot" / "discord" / "embeds.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_rule_set_is_named_outside_its_module(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = [name for name in NAMES if node.value == name or f'"{name}"' in node.value]
            assert not named, f"line {node.lineno} names the rule set {named[0]!r}"
        if isinstance(node, ast.ImportFrom):
            imported = CLASSES & {alias.name for alias in node.names}
            assert not imported, f"line {node.lineno} imports the rule-set class {sorted(imported)[0]}"

"""Every refusal is worded once, in its class in bot/domain/errors.py: code that raises one passes facts
(a name, a number), never words, and the adapters (Discord, the web page) define no errors of their own."""

import ast
import inspect
from pathlib import Path

import pytest

import bot
from bot.domain import errors
from hogengine.errors import HogError

BOT = Path(bot.__file__).parent
WORDED_IN = BOT / "domain" / "errors.py"
REFUSALS = {
    name
    for name, value in vars(errors).items()
    if isinstance(value, type) and issubclass(value, HogError) and value.__module__ == errors.__name__
}


def _worded_raises(tree: ast.AST) -> list[str]:
    """`raise Refusal("words")`: a refusal whose text is written where it is raised."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        call = node.exc
        if isinstance(call.func, ast.Name) and call.func.id in REFUSALS:
            words = [arg for arg in call.args if isinstance(arg, ast.JoinedStr | ast.Constant)]
            if any(isinstance(arg, ast.JoinedStr) or isinstance(arg.value, str) for arg in words):
                found.append(f"line {node.lineno}: {call.func.id}")
    return found


def test_no_refusal_is_worded_where_it_is_raised() -> None:
    worded = {
        str(path.relative_to(BOT)): lines
        for path in sorted(BOT.rglob("*.py"))
        if path != WORDED_IN and (lines := _worded_raises(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert worded == {}


@pytest.mark.parametrize("adapter", ["activity", "discord", "web"])
def test_the_adapters_define_no_refusals_of_their_own(adapter: str) -> None:
    own = []
    for path in sorted((BOT / adapter).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {base.id for base in node.bases if isinstance(base, ast.Name)}
                if bases & (REFUSALS | {"HogError"}):
                    own.append(f"{path.name}: {node.name}")
    assert own == []


def test_every_refusal_has_words_of_its_own() -> None:
    """Each refusal that needs no facts says something specific, ending like a sentence (a class that only
    groups others, and is never raised itself, is not asked)."""
    plain = [
        cls
        for cls in (getattr(errors, name) for name in sorted(REFUSALS))
        if issubclass(cls, errors.ServiceError)
        and cls is not errors.ServiceError
        and ("message" in vars(cls) or not cls.__subclasses__())
        and all(p.default is not p.empty for p in inspect.signature(cls).parameters.values())
    ]
    texts = {cls.__name__: str(cls()) for cls in plain}
    assert len(plain) >= 20
    generic = str(errors.ServiceError())
    assert [name for name, text in texts.items() if text == generic or not text.endswith((".", "!"))] == []

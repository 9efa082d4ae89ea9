"""The floors of DESIGN.md hold: nothing in hogengine imports bot (the `hog` command line finds `hog gui`
through an entry point, never by name), the engine's modules import at their tops (no cycle hidden in a
function), floor 2 imports nothing of floor 3 (its settings come as its own dataclasses, never bot.config),
only the Discord adapter imports discord, and no modules import each other however indirectly."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported(path: Path, depth: int = 1) -> set[str]:
    """The modules a module imports, cut to their first `depth` names (1: top-level packages), wherever
    in the module the import is."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {".".join(alias.name.split(".")[:depth]) for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(".".join(node.module.split(".")[:depth]))
    return names


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", sources("hogengine"), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_engine_imports_nothing_from_the_floors_above(path: Path) -> None:
    assert not imported(path) & {"bot", "discord", "aiohttp"}


@pytest.mark.parametrize("path", sources("hogengine"), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_engine_imports_at_the_top_of_each_module(path: Path) -> None:
    """An import inside a function hides a cycle between modules, or keeps one alive that is gone."""
    functions = [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    hidden = [
        ast.unparse(node)
        for function in functions
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert hidden == []


FLOOR_3 = {"bot.config", "bot.activity", "bot.discord", "bot.web", "bot.images", "bot.health", "bot.__main__"}
FLOOR_2 = [path for floor in ("bot/services", "bot/domain", "bot/storage") for path in sources(floor)]


@pytest.mark.parametrize("path", FLOOR_2, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_services_import_nothing_from_the_adapters(path: Path) -> None:
    assert not imported(path, depth=2) & FLOOR_3


def test_only_the_discord_adapter_imports_discord() -> None:
    importers = {
        path.relative_to(ROOT / "bot").parts[0] for path in sources("bot") if "discord" in imported(path)
    }
    assert importers == {"discord"}  # bot/discord/, never bot/web/, the services or the images


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module of hogengine and bot -> the modules of theirs it imports (anywhere in the module, type
    checking included), each import counted at the deepest module it names."""
    modules = {module_name(path): path for package in ("hogengine", "bot") for path in sources(package)}
    modules |= {module_name(path): path for path in (ROOT / "hogengine").rglob("*.pyi")}  # the C sweep

    def deepest(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        named: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                named += [f"{base}.{alias.name}" for alias in node.names]
        graph[name] = {found for found in map(deepest, named) if found not in (None, name)}
    return graph


def test_imports_only_go_down() -> None:
    """No two modules import each other, however indirectly: each piece has one home below its users."""
    graph = import_graph()
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        for imported_module in sorted(graph[module]):
            if imported_module in path:
                circles.append([*path[path.index(imported_module) :], imported_module])
            elif imported_module not in done:
                visit(imported_module, [*path, imported_module])
        done.add(module)

    for module in sorted(graph):
        if module not in done:
            visit(module, [module])
    assert circles == []

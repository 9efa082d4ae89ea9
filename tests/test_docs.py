"""The project's documents point only at files that exist: a newcomer's every relative link opens."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def links(document: Path) -> list[str]:
    """Every relative link target of a Markdown file (web addresses and in-page anchors left out)."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.DOTALL)
    targets = LINK.findall(re.sub(r"`[^`\n]*`", "", text))  # code shows links, it does not link
    return [target.split("#")[0] for target in targets if not re.match(r"[a-z]+:|#", target)]


def test_the_documents_have_links_to_check() -> None:
    assert {"docs/RULES.md", "docs/DESIGN.md", "docs/bot.md"} <= set(links(ROOT / "README.md"))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_opens_a_file_of_the_repository(document: Path) -> None:
    for target in links(document):
        assert (document.parent / target).exists(), f"{document.name} links {target}, which does not exist"

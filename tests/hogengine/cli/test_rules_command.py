"""`hog rules`, `hog --help` and `hog --version`: what a newcomer types first."""

import pytest

from bot.discord import embeds
from hogengine.cli import main
from hogengine.rules import RULE_SETS, get_rules


def test_hog_rules_prints_each_rule_set_in_the_text_the_bot_shows(capsys) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for ruleset in RULE_SETS:
        shown = embeds.rules(ruleset).description or ""
        assert shown.replace("**", "") in out  # the same words, without Discord's bold marks
        assert f"{ruleset.id} ({'/'.join(ruleset.aliases)}): {ruleset.title}" in out
    assert "**" not in out


def test_hog_rules_names_one_rule_set_by_alias(capsys) -> None:
    assert main(["rules", "SP17"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pork-chop (sp17): ") and "Pork Chop (-1)" in out
    assert "Swine Align" not in out


def test_an_unknown_rule_set_is_one_line_and_a_failure(capsys) -> None:
    assert main(["rules", "sp99"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Unknown rules 'sp99'" in captured.err


def test_hog_play_says_where_the_rules_are(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    main(["play", "--rules", "pig-fest", "--vs", "human", "--seed", "00"])
    out = capsys.readouterr().out
    assert get_rules("pig-fest").explain().replace("**", "") in out
    assert "`hog rules` shows every rule set's rules again." in out


def test_help_lists_the_rule_sets_and_version_prints_one(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out.replace("\n", " ")
    for ruleset in RULE_SETS:
        assert ruleset.id in out
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("hog 0.")

"""Adding a rule set is adding one module: a toy rule set with a hidden part of its own, defined here only,
plays through `hog play`, `hog replay`, the solver, the bot's stored games and board, and `/hog rules`."""

import io
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import pytest

from bot.config import Settings
from bot.discord import embeds
from bot.services import MatchStatus, Player, Services
from hogengine.cli import main
from hogengine.events import EventKind
from hogengine.game import new_game, resolve
from hogengine.numeric import Flag, Num
from hogengine.position import Position
from hogengine.rules import HiddenPart, RuleSet, Step, get_rules, pieces, register, unregister
from hogengine.solver import solve
from hogengine.solver.model import model
from hogengine.solver.reference import optimal_win

CHARGE = HiddenPart("charge", "Charge", per_seat=True, values=range(2))


class Charged(RuleSet):
    """Up to three dice; a Pig Out scores 1 and charges the player, whose next turn without one scores
    double and spends the charge."""

    id = "charged"
    aliases: ClassVar[tuple[str, ...]] = ("toy",)
    title = "Charged (a toy rule set)"
    choices = range(0, 4)
    rule_lines = ("A Pig Out scores 1 and **charges** you: your next turn without one scores double.",)
    hidden_parts = (CHARGE,)

    def dice(self, position: Position, choice: Num) -> tuple[Num, Num]:
        return choice, 6

    def pig_out_points(self, count: Num, ones: Num) -> Num:
        return 1

    def free_bacon(self, opponent: Num) -> Num:
        return 2

    def score(self, position: Position, choice: Num, base: Num, pig_out: Flag, goal: int) -> Step:
        (charge,) = position.mine
        doubled = (charge == 1) & pieces.negate(pig_out)
        points = pieces.where(doubled, 2 * base, base)
        after = Position(
            position.mover + points, position.opponent, (pieces.where(pig_out, 1, 0),), position.theirs
        )
        return Step(after, points, False, {EventKind.MULTIPLIER: doubled}, {EventKind.MULTIPLIER: 2})


TOY = Charged()
SEED = "00112233445566778899aabbccddeeff"


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    register(TOY)
    yield
    unregister(TOY)


def test_it_is_found_by_name_and_explains_itself_like_every_rule_set() -> None:
    assert get_rules("TOY") is TOY
    assert embeds.rules(TOY).description == TOY.explain()
    assert "**charges** you" in TOY.explain() and "**Pig Out**" in TOY.explain()
    with pytest.raises(ValueError, match="taken"):
        register(Charged())


def test_hog_play_shows_its_hidden_part_and_hog_replay_checks_the_game(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n" * 60))
    assert main(["play", "--rules", "toy", "--goal", "20", "--vs", "human", "--seed", SEED]) == 0
    out = capsys.readouterr().out
    assert "charges** you" not in out and "charges you: your next turn" in out  # the rule text, plain
    assert "Player 0   0   Charge: 0" in out and "Player 1   1   Charge: 1" in out  # pigged out: charged
    assert "Choices: 0: Free Bacon (+2) | 1 to 3 dice" in out
    assert "Choices: 0: Free Bacon (+4) | 1 to 3 dice" in out  # a charged Free Bacon scores double
    record = re.search(r"echo '(.*)' \| .* replay", out)
    assert record is not None
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(record.group(1).encode())))
    assert main(["replay", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[-1]["over"] and max(lines[-1]["score"]) >= 20
    assert any(event["kind"] == "multiplier" for line in lines for event in line["events"])


def test_the_solver_agrees_with_the_plain_reference() -> None:
    goal = 15
    assert TOY.layers == 4
    solution, reference, built = solve(TOY, goal), optimal_win(TOY, goal), model(TOY, goal)
    for state in range(0, built.size, 7):
        layer, mover, opponent = (
            int(built.layer[state]),
            int(built.mover[state]),
            int(built.opponent[state]),
        )
        position = TOY.at_layer(mover, opponent, layer)
        assert solution.values[layer, mover, opponent] == pytest.approx(reference(position), abs=1e-12)


async def test_the_bot_stores_its_hidden_part_and_shows_it_on_the_board(tmp_path: Path) -> None:
    settings = Settings(database_path=tmp_path / "hog.sqlite3", solver_cache_path=tmp_path, _env_file=None)
    services = await Services.open(settings.services)
    service = services.games
    try:
        alice, bob = Player(1, "alice"), Player(2, "bob")
        match = await service.challenge(5, alice, bob, rules="toy", goal=20, guild_id=9)
        match = await service.accept(match.id, bob.id)
        while match.status is MatchStatus.ACTIVE:
            mover = match.player_to_move
            assert mover is not None
            match = (await service.play(match.id, mover.id, match.state.turn, 3)).match
        turns = await service.turns(match.id)
        replayed = new_game("charged", 20)
        for turn in turns:  # the stored state is the engine's replay of the stored turns, hidden part too
            replayed = resolve(replayed, turn.result.choice, turn.result.outcomes).after
        assert (await service.get(match.id)).state == replayed
        lines = (embeds.board(match, turns).description or "").splitlines()
        for seat, name in enumerate(("alice", "bob")):  # a part shows once it left its starting value
            charge = replayed.hidden_value(CHARGE, seat)
            after = lines[next(at for at, line in enumerate(lines) if line.startswith(f"{name} · ")) + 1]
            assert (after == f"↳ Charge: {charge}") == (charge != CHARGE.values.start), (charge, lines)
        charged = replace(match, state=replayed.with_hidden({"charge": (1, 0)}))  # one charged, one not
        lines = (embeds.board(charged, turns).description or "").splitlines()
        assert lines.count("↳ Charge: 1") == 1 and lines[lines.index("↳ Charge: 1") - 1].startswith(
            "alice · "
        )
    finally:
        await services.close()

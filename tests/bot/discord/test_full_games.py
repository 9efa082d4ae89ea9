"""Whole games through Discord on every rule set: the board follows each turn, and the finished game
can be exported and checked with `hog replay` against the revealed dice seed."""

import hashlib

import pytest

from hogengine.dice import seeded_rolls
from hogengine.game import State
from tests.bot.discord.harness import World, fields, labels, replay


def swine_align(state: State) -> int:
    return 0 if state.turn % 4 == 3 else 5


def pork_chop(state: State) -> int:
    return -1 if state.turn in (2, 3, 6) else 6  # each Pork Chop, then alice's -1 that rolls ten dice


def pig_fest(state: State) -> int:
    return -1 if state.turn % 5 == 4 else 3  # Ham Hijinks now and then


def piggy_back(state: State) -> int:
    return 0 if state.turn % 6 == 5 else 7


GAMES = {  # how both players choose, what the boards must have said, the buttons they must have shown
    "swine-align": (swine_align, ["Free Bacon"], ["Free Bacon"]),
    "pork-chop": (
        pork_chop,
        ["plays Pork Chop: the scores trade places", "Pork Chop: used", "**alice** rolled 10 "],
        ["Pork Chop", "Roll 10 (-1)"],
    ),
    "pig-fest": (
        pig_fest,
        ["plays Ham Hijinks: the dice are exchanged", "four-sided dice — Ham Hijinks exchanged"],
        ["Ham Hijinks"],
    ),
    "piggy-back": (piggy_back, ["Piggy Back gives the opponent"], ["Free Bacon"]),
}


@pytest.mark.parametrize("rules", GAMES)
async def test_a_whole_game_to_the_end(world: World, rules: str) -> None:
    choose, sightings, buttons = GAMES[rules]
    match = await world.challenge(rules)
    commitment = match.seed_hash

    boards = await world.play_to_end(match.id, choose)

    seen = "\n".join(str(board.embeds[0].to_dict()) for board in boards)
    for text in sightings:
        assert text in seen
    shown = {label for board in boards for label in labels(board)}
    assert set(buttons) <= shown
    final = boards[-1]
    over = await world.match(match.id)
    winner = ("alice", "bob")[over.winner or 0]
    assert final.embeds[0].title == f"Game over · {over.state.scores[0]}-{over.state.scores[1]}"
    assert final.embeds[0].description == f"**{winner}** reached 100 and wins!"
    assert f"{winner} wins" in fields(final)["Last turn"]
    assert labels(final) == ["Rematch", "Analysis"]
    seed = fields(final)["Dice seed (revealed)"].strip("`")
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment

    record = await world.export(match.id)
    turns = replay(record)
    assert record["seed"] == seed
    assert turns[-1]["score"] == list(over.state.scores) and turns[-1]["over"]
    for turn in turns:  # every roll was the committed seed's, none chosen after the fact
        assert turn["rolls"] == seeded_rolls(bytes.fromhex(seed), turn["turn"], turn["dice"], turn["sides"])

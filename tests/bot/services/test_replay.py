"""A match's stored state always equals the replay of its stored turns, on every rule set."""

import json
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from bot.services import GameService, MatchStatus
from bot.storage import Database
from bot.storage.database import Record
from hogengine.dice import commitment
from hogengine.game import State, legal_choices, new_game, resolve
from hogengine.replay import parse_record, replay
from hogengine.rules import RULE_SETS
from tests.helpers import ALICE, BOB, CHANNEL, PlayOut

REPO = Path(__file__).resolve().parents[3]


def random_chooser(seed: int):
    rng = Random(seed)
    return lambda state: rng.choice(list(legal_choices(state)))


def rebuild(start: State, rows: list[Record]) -> State:
    """Replay the stored choices and outcomes through the engine, checking every stored column."""
    state = start
    for number, row in enumerate(rows):
        assert row["turn"] == number
        result = resolve(state, row["choice"], tuple(json.loads(row["outcomes"])))
        assert row["player"] == result.player
        assert (row["dice"], row["sides"], row["points"]) == (result.dice, result.sides, result.points)
        assert json.loads(row["events"]) == [event.to_json() for event in result.events]
        assert (row["score0"], row["score1"]) == result.after.scores
        state = result.after
    return state


@pytest.mark.parametrize("rules", [rules.id for rules in RULE_SETS])
@pytest.mark.parametrize("goal", [100, 37])
async def test_stored_state_is_the_replay_of_stored_turns(
    service: GameService, db: Database, play_out: PlayOut, rules: str, goal: int
) -> None:
    for game in range(3):
        match = await service.challenge(CHANNEL, ALICE, BOB, rules=rules, goal=goal)
        match = await service.accept(match.id, BOB.id)
        match = await play_out(match, random_chooser(game))
        assert match.status is MatchStatus.FINISHED
        rows = await db.fetch_all("SELECT * FROM turns WHERE match_id = ? ORDER BY turn", (match.id,))
        assert rebuild(new_game(rules, goal), rows) == match.state
        assert match.winner == match.state.winner
        turns = await service.turns(match.id)  # as the bot reads them: the engine's results, replayed
        assert [turn.result.after for turn in turns][-1] == match.state and len(turns) == len(rows)

        exported = await service.export(match.id, guild_id=0, user_id=ALICE.id)
        assert exported["commitment"] == match.seed_hash == commitment(bytes.fromhex(exported["seed"]))
        results = list(replay(parse_record(exported)))
        assert results[-1].after == match.state


async def test_export_before_the_end_hides_the_seed(service: GameService) -> None:
    match = await service.vs_bot(CHANNEL, ALICE)
    played = await service.play(match.id, ALICE.id, 0, 3)
    exported = await service.export(match.id, guild_id=0, user_id=ALICE.id)
    assert "seed" not in exported and played.match.seed is None
    assert exported["turns"][0]["choice"] == 3
    assert list(replay(parse_record(exported)))[-1].after == (await service.get(match.id)).state


async def test_hog_replay_verifies_the_export(service: GameService, play_out: PlayOut) -> None:
    match = await service.vs_bot(CHANNEL, ALICE, rules="pork-chop", level="course")
    match = await play_out(match, random_chooser(7))
    exported = json.dumps(await service.export(match.id, guild_id=0, user_id=ALICE.id))
    run = subprocess.run(
        [sys.executable, "-m", "hogengine", "replay", "--json"],
        input=exported,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    last = json.loads(run.stdout.splitlines()[-1])
    assert last["score"] == list(match.state.scores)

"""Whole games through Discord on every rule set: the board follows each turn (scores and their bars,
Pig Fest streaks and multipliers, the commentary, true to each turn), and the finished game can be exported
and checked with `hog replay` against the dice seed its Verify dice button reveals."""

import hashlib
from collections.abc import Sequence
from typing import Any

import discord
import pytest

from hogengine.dice import seeded_rolls
from hogengine.events import EventKind
from hogengine.game import State, TurnResult, choice_label, distinct_choices, new_game, resolve
from tests.bot.discord.harness import (
    BOARD_ROWS,
    World,
    labels,
    last_turn,
    phone_rows,
    replay,
    said,
    seat_lines,
    text,
    wrapped,
)

NAMES = ("alice", "bob")


def swine_align(state: State) -> int:
    return 0 if state.turn % 4 == 3 else 5


def pork_chop(state: State) -> int:
    return -1 if state.turn in (2, 3) else 10 if state.turn == 6 else 6  # each Pork Chop, then ten dice


def pig_fest(state: State) -> int:
    return -1 if state.turn % 5 == 4 else 3  # Ham Hijinks now and then


def piggy_back(state: State) -> int:
    return 0 if state.turn % 6 == 5 else 7


GAMES = {  # how both players choose, what the boards must have said, the buttons they must have shown
    "swine-align": (swine_align, ["Free Bacon"], ["Free Bacon"]),
    "pork-chop": (
        pork_chop,
        ["Pork Chop → scores swapped", "↳ Pork Chop: used", "**alice** 🎲 "],
        ["Pork Chop", "Roll 10"],
    ),
    "pig-fest": (
        pig_fest,
        ["**alice** Ham Hijinks → +1, dice exchanged", "the dice were exchanged 1 time, an odd number"],
        ["Ham Hijinks"],
    ),
    "piggy-back": (piggy_back, ["Piggy Back: "], ["Free Bacon"]),
}


def results_of_each_turn(record: dict[str, Any]) -> list[TurnResult]:
    """The engine's result of every turn of an exported game: its events and the state after it, hidden
    parts included."""
    state, results = new_game(record["rules"], record["goal"]), []
    for turn in record["turns"]:
        result = resolve(state, turn["choice"], turn["rolls"])
        results.append(result)
        state = result.after
    return results


def commentary(results: Sequence[TurnResult]) -> list[str]:
    """What the board's commentary says after the last of these turns: the course GUI's (RULES.md,
    swine-align rule 7; seed 004, Problem 7) made true to the turn: each new record of points the mover
    scored in one turn (never a swap's jump, never a Pig Out), then who takes the lead (a tie forgets the
    leader)."""
    leader: int | None = None
    record = [0, 0]
    said: list[str] = []
    for result in results:
        said = []
        seat, points = result.player, result.points
        pig_out = any(event.kind is EventKind.PIG_OUT for event in result.events)
        if points > record[seat] and not pig_out:
            said.append(f"{points} point{'' if points == 1 else 's'}! The most yet for {NAMES[seat]}")
            record[seat] = points
        pair = result.after.scores
        ahead = 0 if pair[0] > pair[1] else 1 if pair[1] > pair[0] else None
        if ahead is not None and ahead != leader:
            said.append(f"{NAMES[ahead]} takes the lead by {abs(pair[0] - pair[1])}")
        leader = ahead
    return said


def player_fields(board: discord.Message) -> list[str]:
    """Each seat's lines of a board (the one to move is marked), with its hidden parts."""
    return [seat_lines(board)[name] for name in NAMES]


def commentary_shown(board: discord.Message) -> list[str]:
    return [
        line for line in text(board).splitlines() if "The most yet for" in line or "takes the lead by" in line
    ]


def check_boards(boards: list[discord.Message], results: list[TurnResult]) -> list[str]:
    """Every board after a turn shows the scores with their bars towards the goal, the Pig Fest streaks
    and multipliers once they started, the last turn's dice, points and every rule that fired, the
    commentary on the scores so far, and a button for each distinct legal choice while the game is on;
    every commentary line seen."""
    seen = []
    states = [result.after for result in results]
    assert len(boards) == len(states) + 1  # the first board, then one after each press
    for number, (board, result) in enumerate(zip(boards[1:], results, strict=True), 1):
        state = result.after
        line = last_turn(board)
        assert line.startswith(f"**{NAMES[result.player]}** ")
        if result.dice:
            assert f"🎲 {' '.join(map(str, result.outcomes))}" in line
        for event in result.events:
            assert event.brief().replace("Player 0", "alice").replace("Player 1", "bob") in line
        if not state.over:
            assert sorted(labels(board)) == sorted(
                [*(choice_label(state, choice) for choice in distinct_choices(state)), "Verify dice"]
            )
        for seat, field in enumerate(player_fields(board)):
            score = state.scores[seat]
            filled = min(10, 10 * score // state.goal)
            marker = "▶ " if not state.over and state.mover == seat else ""
            assert field.startswith(
                f"{marker}{NAMES[seat]} · **{score}** `{'█' * filled}{'░' * (10 - filled)}`"
            )
            if state.rules == "pig-fest":
                streak = state.hidden_by_name()["streak"][seat]
                times = min(3, max(1, streak))
                pig_outs = "1 Pig Out" if streak == 1 else f"{streak} Pig Outs"
                told = f"Pig Fest: {pig_outs} in a row, next scoring turn x{times}" in field
                assert told == (streak > 0) and (streak > 0 or "Pig Fest" not in field)
        said = commentary(results[:number])
        shown = commentary_shown(board)
        full = phone_rows(board.embeds[0]) + sum(wrapped(line) for line in said) > BOARD_ROWS
        assert shown == said or (shown == [] and full)  # the turns come first on a full board
        seen += shown
    return seen


@pytest.mark.parametrize("rules", GAMES)
async def test_a_whole_game_to_the_end(world: World, rules: str) -> None:
    choose, sightings, buttons = GAMES[rules]
    match = await world.challenge(rules)
    commitment = match.seed_hash

    boards = await world.play_to_end(match.id, choose)

    seen = "\n".join(str(board.embeds[0].to_dict()) for board in boards)
    for sighting in sightings:
        assert sighting in seen
    shown = {label for board in boards for label in labels(board)}
    assert set(buttons) <= shown and "Roll 10 (-1)" not in shown  # one button per action
    final = boards[-1]
    over = await world.match(match.id)
    winner = ("alice", "bob")[over.winner or 0]
    loser = ("alice", "bob")[1 - (over.winner or 0)]
    scores = sorted(over.state.scores, reverse=True)  # the winner reached the goal: theirs is higher
    assert final.embeds[0].title == over.state.ruleset.name
    assert (
        text(final).splitlines()[0] == f"🏆 **{winner}** reached 100 and wins, {scores[0]}\u2013{scores[1]}."
    )
    assert loser in seat_lines(final)
    assert labels(final) == ["Rematch", "Analysis", "Verify dice"]
    verified = said(await world.carol.click(final, label="Verify dice"))
    seed = verified.split("`")[1]  # the first code span: the seed, revealed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment and f"`{commitment}`" in verified

    record = await world.export(match.id)
    results = results_of_each_turn(record)
    states = [result.after for result in results]
    commented = check_boards(boards, results)
    if rules == "pig-fest":  # a streak of two or more was shown, with a multiplier above 1
        assert max(streak for state in states for streak in state.hidden_by_name()["streak"]) >= 2
    assert any("takes the lead" in line for line in commented)
    assert any("The most yet for" in line for line in commented)
    assert "`██████████`" in player_fields(final)[over.winner or 0]
    turns = replay(record)
    assert record["seed"] == seed
    assert turns[-1]["score"] == list(over.state.scores) and turns[-1]["over"]
    for turn in turns:  # every roll was the committed seed's, none chosen after the fact
        assert turn["rolls"] == seeded_rolls(bytes.fromhex(seed), turn["turn"], turn["dice"], turn["sides"])

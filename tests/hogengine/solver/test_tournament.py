"""Tournaments: exact (a point above 50.0001%, ties lose) and sampled (deterministic for a seed)."""

from random import Random

import numpy as np
import pytest

from hogengine.errors import BadStrategy
from hogengine.solver import exact_winrate, tournament_exact, tournament_sampled, winrate_matrix
from hogengine.strategies import always_roll, table_from_function

RULES = "swine-align"


def always(n: int) -> np.ndarray:
    return table_from_function(always_roll(n), RULES)


ENTRIES = [("four", always(4)), ("five", always(5)), ("six", always(6)), ("twin", always(6))]


def test_exact_points_go_to_rates_above_the_threshold_and_ties_lose() -> None:
    standings = tournament_exact(RULES, ENTRIES, goal=40)
    rates = winrate_matrix(RULES, [table for _, table in ENTRIES], 40).average
    by_name = {row.name: row for row in standings.rows}
    assert by_name["six"].losses >= 1 and by_name["twin"].losses >= 1  # their mirror match is a tie
    for number, (name, _) in enumerate(ENTRIES):
        others = [rates[number, other] for other in range(len(ENTRIES)) if other != number]
        assert by_name[name].wins == sum(rate > 0.500001 for rate in others)
        assert by_name[name].wins + by_name[name].losses == len(ENTRIES) - 1
        assert by_name[name].tie_break == pytest.approx(np.mean(others))
    assert [row.wins for row in standings.rows] == sorted((row.wins for row in standings.rows), reverse=True)
    assert len(standings.matches) == 6
    match = next(m for m in standings.matches if (m.a, m.b) == ("four", "five"))
    assert match.a_result == pytest.approx(exact_winrate(RULES, always(4), always(5), 40).average)
    assert match.a_result + match.b_result == pytest.approx(1.0)


def test_a_rate_at_the_threshold_is_no_point() -> None:
    """A mirror match is exactly 50%: below 50.0001%, so both sides lose it."""
    standings = tournament_exact(RULES, ENTRIES[2:], goal=30)
    assert [(row.wins, row.losses) for row in standings.rows] == [(0, 1), (0, 1)]


def test_sampled_tournament_is_deterministic_for_a_seed() -> None:
    first = tournament_sampled(RULES, ENTRIES, Random(2015), goal=30)
    again = tournament_sampled(RULES, ENTRIES, Random(2015), goal=30)
    assert first == again
    for match in first.matches:
        assert match.a_result + match.b_result == 9
    wins = {row.name: row.wins for row in first.rows}
    for name, _ in ENTRIES:
        won = sum(
            (m.a == name and m.a_result > m.b_result) or (m.b == name and m.b_result > m.a_result)
            for m in first.matches
        )
        assert wins[name] == won
    five = table_from_function(always_roll(5), RULES)
    for row in first.rows:
        table = dict(ENTRIES)[row.name]
        assert row.tie_break == pytest.approx(exact_winrate(RULES, table, five, 30).average, abs=1e-12)
    ranked = [(row.wins, row.tie_break) for row in first.rows]
    assert ranked == sorted(ranked, reverse=True)


def test_a_random_entry_plays_a_fresh_recorded_table_in_each_game_of_a_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seed 001 takes strategies that answer at random: game g of each of their matches plays their
    recorded table g, the tie-break rates their first table, and a seed replays it all."""
    from hogengine.solver import tournament  # noqa: PLC0415 - its `play_games` is watched here

    played: list[int] = []

    def watched(rules, tables, seats, *args, **options):  # the games' tables, pair by pair, game by game
        if not played:  # which recorded table (always 1 .. 9) the random entry played, in each game
            played.extend(
                choice for row in seats.tolist() for t in row if (choice := int(tables[t][0, 0])) != 10
            )
        return play_games(rules, tables, seats, *args, **options)

    play_games = tournament.play_games
    monkeypatch.setattr(tournament, "play_games", watched)
    rules = "pig-fest"
    recorded = [table_from_function(always_roll(n), rules) for n in range(1, 10)]
    tens = table_from_function(always_roll(10), rules)
    entries = [("dice", recorded[0]), ("tens", tens), ("tens 2", tens)]
    first = tournament_sampled(rules, entries, Random(1), goal=30, recorded={"dice": recorded})
    assert played == [*range(1, 10)] * 2  # its matches against both others
    assert first == tournament_sampled(rules, entries, Random(1), goal=30, recorded={"dice": recorded})
    five = table_from_function(always_roll(5), rules)
    dice = next(row for row in first.rows if row.name == "dice")
    assert dice.tie_break == pytest.approx(exact_winrate(rules, recorded[0], five, 30).average, abs=1e-12)


def test_a_round_robin_of_no_one_is_empty() -> None:
    assert winrate_matrix("swine-align", []).first.shape == (0, 0)


@pytest.mark.parametrize("table", [np.full((100, 100), 4.5), np.full((100, 100), True)], ids=["4.5", "True"])
def test_a_table_of_other_than_whole_numbers_is_refused(table: np.ndarray) -> None:
    """4.5 dice would play 4, and True one die: neither is a choice a player made."""
    with pytest.raises(BadStrategy, match=r"must be whole numbers, not (float64|bool) values"):
        exact_winrate("swine-align", table, always_roll(4))

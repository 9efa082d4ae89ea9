"""The commentary boards, pages and the terminal say after a turn is true to the turn: a swap is a swap and
no points, "the most yet" counts points the mover scored, and a Pig Out is nothing to celebrate; a lead
that changes hands is said as the course says it, however it changed."""

from random import Random

from hypothesis import given
from hypothesis import strategies as st

from hogengine.commentary import course_commentary, game_commentary
from hogengine.events import EventKind
from hogengine.game import TurnResult
from tests.hogengine.conftest import play_turns, random_game, start


def test_a_pork_chop_swap_is_no_points_but_does_change_the_lead() -> None:
    played = play_turns(start("pork-chop"), [(3, [2, 3, 4]), (-1, [])])  # 9-0, then a swap: 0-9

    said = game_commentary(played)

    assert played[1].after.scores == (0, 9) and played[1].points == 0
    assert said == [
        ("9 point(s)! The most yet for Player 0", "Player 0 takes the lead by 9"),
        ("Player 1 takes the lead by 9",),
    ]
    assert (
        course_commentary(r.after.scores for r in played)[1][0] == "9 point(s)! The most yet for Player 1"
    )  # the course's


def test_a_swine_swap_counts_the_points_scored_not_the_jump() -> None:
    # pork-chop at 14-42: Free Bacon scores 1 + 4 = 5, Hogtimus Prime makes it 7, and 21 is half of 42: swap.
    played = play_turns(start("pork-chop", (14, 42)), [(0, [])])
    (swapped,) = played

    assert any(event.kind is EventKind.SWAP for event in swapped.events)
    assert swapped.after.scores == (42, 21)
    assert game_commentary(played) == [
        ("7 point(s)! The most yet for Player 0", "Player 0 takes the lead by 21")
    ]


def test_a_pig_out_is_not_celebrated() -> None:
    played = play_turns(start("swine-align"), [(5, [1, 6, 6, 6, 6])])  # one point, the first of the game

    assert played[0].points == 1
    assert game_commentary(played) == [("Player 0 takes the lead by 1",)]


def highest_claims(played: list[TurnResult]) -> list[tuple[int, int]]:
    """(player, points) of every "most yet" the commentary says, turn by turn."""
    claims = []
    for turn, said in zip(played, game_commentary(played), strict=True):
        for line in said:
            if "The most yet for Player" in line:
                claims.append((int(line.rsplit(" ", 1)[1]), int(line.split(" ", 1)[0])))
                assert claims[-1] == (turn.player, turn.points)  # the mover, for what they scored
    return claims


@given(st.sampled_from(["swine-align", "pork-chop", "pig-fest", "piggy-back"]), st.integers(0, 2**32))
def test_the_most_yet_is_each_new_record_of_points_scored_without_a_pig_out(rules: str, seed: int) -> None:
    played = random_game(rules, Random(seed))

    best = [0, 0]
    expected = []
    for turn in played:
        pig_out = any(event.kind is EventKind.PIG_OUT for event in turn.events)
        if not pig_out and turn.points > best[turn.player]:
            best[turn.player] = turn.points
            expected.append((turn.player, turn.points))
    assert highest_claims(played) == expected

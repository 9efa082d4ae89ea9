"""How a table of places is ranked and shown (bot/domain/tournaments.py, contests.py), for any field: places
follow wins then the tie-break, equal rows share a place, and the tie-break is shown to the digits that
tell apart every two places it decides, and alike where it decides nothing."""

from hypothesis import given
from hypothesis import strategies as st

from bot.domain.contests import Result, placed
from bot.domain.tournaments import as_fraction, as_percent, shared_places, tie_breaks_shown

# Rates as the solver gives them, often equal or nearly so (a few ulps, or the fourth decimal, apart).
BASES = [0.25, 0.271043, 0.5, 0.5000010000001]
rates = st.one_of(
    st.floats(0, 1, allow_nan=False),
    st.sampled_from(BASES),
    st.builds(lambda base, ulps: base + ulps * 2**-53, st.sampled_from(BASES), st.integers(-3, 3)),
    st.builds(lambda base, step: base + step * 1e-5, st.sampled_from(BASES), st.integers(-3, 3)),
)
fields = st.lists(st.tuples(st.integers(0, 3), rates), max_size=12)


@given(fields)
def test_results_are_placed_by_wins_then_rate_and_equals_share_a_place(
    field: list[tuple[int, float]],
) -> None:
    results = [Result(number, 0, wins, 3 - wins, rate) for number, (wins, rate) in enumerate(field, 1)]
    ranked = placed(results)
    keys = [(r.wins, r.baseline) for r in ranked]
    assert keys == sorted(keys, key=lambda key: (-key[0], -key[1]))
    for result in ranked:  # a place counts every entry strictly above it
        above = sum((other.wins, other.baseline) > (result.wins, result.baseline) for other in ranked)
        assert result.place == above + 1
    assert shared_places(keys) == [r.place for r in ranked]
    assert [r.extra_credit for r in ranked] == [max(0, 4 - r.place) for r in ranked]


@given(fields, st.sampled_from([(1, as_percent), (6, as_fraction)]))
def test_the_shown_rates_tell_apart_every_two_places_they_decide(
    field: list[tuple[int, float]], form: tuple[int, object]
) -> None:
    least, written = form
    rows = sorted(field, key=lambda row: (-row[0], -row[1]))
    shown = tie_breaks_shown(rows, least, written)  # type: ignore[arg-type]
    for index in range(1, len(rows)):
        (row, text), (before, text_before) = (rows[index], shown[index]), (rows[index - 1], shown[index - 1])
        if row == before:
            assert text == text_before  # one place, one figure
        elif row[0] == before[0]:
            assert text != text_before  # the digits that decide are shown
    for (_, rate), text in zip(rows, shown, strict=True):
        decimals = len(text.rstrip("%").split(".")[1])
        assert decimals >= least and text == written(rate, decimals)  # type: ignore[operator]

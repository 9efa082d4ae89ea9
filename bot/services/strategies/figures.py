"""A strategy's exact win rates against the reference opponents, stored with it."""

from bot.domain.strategies import Matchup
from hogengine.game import MAX_GOAL
from hogengine.solver import PERFECT, Player, exact_winrates
from hogengine.strategies import Table, always_roll_table

REFERENCE_DICE = (4, 5, 6)
# Figures are keyed by the engine's player names: PERFECT is full-state optimal play, the very player of
# `/hog vs-bot level:perfect`; figures stored before it was are against BEST_TABLE, the best score-only
# table (migration 0006 renamed the keys they were first stored under).


def compute_figures(rules: str, table: Table, perfect: Player, goal: int = MAX_GOAL) -> tuple[Matchup, ...]:
    """Exact win rates (blocking) against always_roll(4), (5), (6) and the perfect bot, whose full-state
    `perfect` policy sees the hidden state a table cannot: no table beats it on average."""
    opponents: dict[str, Player] = {f"always_roll({n})": always_roll_table(n, rules) for n in REFERENCE_DICE}
    opponents[PERFECT] = perfect
    rates = exact_winrates(rules, [(table, other) for other in opponents.values()], goal)
    return tuple(
        Matchup(name, rate.first, rate.second, rate.average)
        for name, rate in zip(opponents, rates, strict=True)
    )


def current(figures: tuple[Matchup, ...]) -> bool:
    """Whether stored figures include the perfect bot as it plays now (so another upload may reuse them)."""
    return any(figure.opponent == PERFECT for figure in figures)

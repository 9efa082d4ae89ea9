"""Pictures people would rather look at than read: strategy heat maps, win-probability charts, standings
and rating histories, all on one dark card that reads on Discord's dark and light themes.

Each renderer is a pure function returning PNG bytes plus alt text; it uses matplotlib's object API
(no pyplot state), so callers may run several at once in worker threads, off the event loop.
"""

from bot.images.charts import win_probability_chart
from bot.images.heatmap import strategy_heatmap
from bot.images.picture import Picture
from bot.images.ratings import rating_history_chart
from bot.images.standings import Place, Versus, results_matrix, standings_chart

__all__ = [
    "Picture",
    "Place",
    "Versus",
    "rating_history_chart",
    "results_matrix",
    "standings_chart",
    "strategy_heatmap",
    "win_probability_chart",
]

"""Games: challenges, turns, the house bot, clocks and rematches."""

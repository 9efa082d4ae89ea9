"""The seeds' contest rules, which the solver's tournaments, the sandbox's check of an entry and the bot
share: exact round robins (seeds 000/003) and sampled nine-game matches (seed 001)."""

# Seeds 000/003: a match point for an exact win rate above 50.0001%; anything else (ties too) is a loss.
THRESHOLD = 0.500001
# Seed 001: games per match, and the opponent of the tie-break.
GAMES = 9
TIE_BREAK_ROLLS = 5

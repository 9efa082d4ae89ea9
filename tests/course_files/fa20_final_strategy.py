"""
    This file contains your final_strategy that will be submitted to the contest.
    It will only be run on your local machine, so you can import whatever you want!
    Remember to supply a unique PLAYER_NAME or your submission will not succeed.
"""

# Written for these tests in the shape of a student's Fall 2020 contest file: the course's hog.py imported.

from hog import *

PLAYER_NAME = "Zoë's Pig Pen 🐷"  # Change this line!


def final_strategy(score, opponent_score):
    if score + free_bacon(opponent_score) >= GOAL_SCORE:
        return 0
    if extra_turn(score + free_bacon(opponent_score), opponent_score):
        return 0
    if score < 60:
        return extra_turn_strategy(score, opponent_score, 9, 6)
    return bacon_strategy(score, opponent_score, 7, 5)

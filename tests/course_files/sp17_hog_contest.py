"""
This is a minimal contest submission file. You may also submit the full
hog.py from Project 1 as your contest entry.

Only this file will be submitted. Make sure to include any helper functions
from `hog.py` that you'll need here! For example, if you have a function to
calculate Free Bacon points, you should make sure it's added to this file
as well.
"""

# Written for these tests in the shape of a student's Spring 2017 contest file (pork-chop): helpers copied
# in from hog.py, a Pork Chop (-1) when a swap of scores helps.

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

TEAM_NAME = 'Pork Chop Express'  # Change this line!
GOAL_SCORE = 100


def free_bacon(opponent_score):
    return 1 + max(opponent_score // 10, opponent_score % 10)


def hog_prime(points):
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    if points in primes:
        return primes[primes.index(points) + 1]
    return points


def select_dice(score, opponent_score):
    if (score + opponent_score) % 7 == 0:
        return four_sided
    return six_sided


def final_strategy(score, opponent_score):
    if opponent_score - score >= 20:
        return -1  # Pork Chop: trade places
    bacon = hog_prime(free_bacon(opponent_score))
    if score + bacon >= GOAL_SCORE or bacon >= 9:
        return 0
    dice = select_dice(score, opponent_score)
    if dice == four_sided:
        return 3
    return 5

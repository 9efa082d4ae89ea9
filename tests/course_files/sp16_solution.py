"""The Game of Hog."""

# Written for these tests in the shape of a student's finished Spring 2016 hog.py (piggy-back): its own
# list of primes, Piggy Back written into play, tabs in one function, final_strategy made by a factory.

from dice import four_sided, six_sided, make_test_dice
from ucb import main, trace, log_current_line, interact

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71]

######################
# Phase 1: Simulator #
######################

def roll_dice(num_rolls, dice=six_sided):
	"""Simulate rolling the DICE exactly NUM_ROLLS times. Return the sum of
	the outcomes unless any of the outcomes is 1. In that case, return 0.
	"""
	# These assert statements ensure that num_rolls is a positive integer.
	assert type(num_rolls) == int, 'num_rolls must be an integer.'
	assert num_rolls > 0, 'Must roll at least once.'
	# BEGIN PROBLEM 1
	outcomes = [dice() for _ in range(num_rolls)]
	if 1 in outcomes:
		return 0
	return sum(outcomes)
	# END PROBLEM 1


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon).

    num_rolls:       The number of dice rolls that will be made.
    opponent_score:  The total score of the opponent.
    dice:            A function of no args that returns an integer outcome.
    """
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    # BEGIN PROBLEM 2
    if num_rolls == 0:
        points = 1 + max(opponent_score // 10, opponent_score % 10)
    else:
        points = roll_dice(num_rolls, dice)
    if points in primes:
        points = primes[primes.index(points) + 1]
    return points
    # END PROBLEM 2


def select_dice(score, opponent_score):
    """Select six-sided dice unless the sum of SCORE and OPPONENT_SCORE is a
    multiple of 7, in which case select four-sided dice (Hog Wild).
    """
    # BEGIN PROBLEM 3
    return four_sided if (score + opponent_score) % 7 == 0 else six_sided
    # END PROBLEM 3


def is_swap(score0, score1):
    """Returns whether the last two digits of SCORE0 and SCORE1 are reversed
    versions of each other, such as 19 and 91.
    """
    # BEGIN PROBLEM 4
    first, second = score0 % 100, score1 % 100
    return first == (second % 10) * 10 + second // 10
    # END PROBLEM 4


def other(player):
    """Return the other player, for a player PLAYER numbered 0 or 1."""
    return 1 - player


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players."""
    player = 0  # Which player is about to take a turn, 0 (first) or 1 (second)
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if player == 0:
            rolls = strategy0(score0, score1)
            points = take_turn(rolls, score1, select_dice(score0, score1))
            score0 += points
            if points == 0 and rolls > 0:
                score1 += rolls  # Piggy Back
        else:
            rolls = strategy1(score1, score0)
            points = take_turn(rolls, score0, select_dice(score1, score0))
            score1 += points
            if points == 0 and rolls > 0:
                score0 += rolls  # Piggy Back
        if is_swap(score0, score1):
            score0, score1 = score1, score0
        player = other(player)
    # END PROBLEM 5
    return score0, score1


def always_roll(n):
    """Return a strategy that always rolls N dice."""
    def strategy(score, opponent_score):
        return n
    return strategy


def make_averaged(fn, num_samples=1000):
    """Return a function that returns the average_value of FN when called."""
    # BEGIN PROBLEM 6
    def averaged(*args):
        return sum(fn(*args) for _ in range(num_samples)) / num_samples
    return averaged
    # END PROBLEM 6


def bacon_strategy(score, opponent_score, margin=8, num_rolls=5):
    """This strategy rolls 0 dice if that gives at least MARGIN points,
    and rolls NUM_ROLLS otherwise.
    """
    # BEGIN PROBLEM 8
    return 0 if take_turn(0, opponent_score) >= margin else num_rolls
    # END PROBLEM 8


def swap_strategy(score, opponent_score, num_rolls=5):
    """This strategy rolls 0 dice when it results in a beneficial swap and
    rolls NUM_ROLLS otherwise.
    """
    # BEGIN PROBLEM 9
    after = score + take_turn(0, opponent_score)
    if is_swap(after, opponent_score) and opponent_score > after:
        return 0
    return num_rolls
    # END PROBLEM 9


def meta_final(early, late, margin_early, margin_late):
    """A final strategy rolling EARLY dice below 50 points and LATE dice after."""
    def strategy(score, opponent_score, goal=GOAL_SCORE):
        if swap_strategy(score, opponent_score) == 0:
            return 0
        if score < 50:
            return bacon_strategy(score, opponent_score, margin_early, early)
        return bacon_strategy(score, opponent_score, margin_late, late)
    return strategy


final_strategy = meta_final(5, 4, 8, 6)


@main
def run(*args):
    """Read in the command-line argument and calls corresponding functions."""
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true',
                        help='Runs strategy experiments')
    args = parser.parse_args()

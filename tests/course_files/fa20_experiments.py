"""CS 61A Presents The Game of Hog."""

# Written for these tests in the shape of a student's Fall 2020 hog.py that experiments when it loads:
# thousands of dice rolled and games played at import, prints, and a default computed by rolling dice.

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact
from math import gcd

GOAL_SCORE = 100
FIRST_101_DIGITS_OF_PI = 31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679


def roll_dice(num_rolls, dice=six_sided):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    outcomes = [dice() for _ in range(num_rolls)]
    return 1 if 1 in outcomes else sum(outcomes)


def free_bacon(score):
    assert score < 100, 'The game should be over.'
    return FIRST_101_DIGITS_OF_PI // 10 ** (100 - score) % 10 + 3


def take_turn(num_rolls, opponent_score, dice=six_sided):
    return free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def extra_turn(player_score, opponent_score):
    return (0 < opponent_score - player_score < 3
            or (player_score > 0 and opponent_score > 0 and gcd(player_score, opponent_score) >= 10))


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE):
    who = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice)
            who = 0 if extra_turn(score0, score1) else 1
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice)
            who = 1 if extra_turn(score1, score0) else 0
    return score0, score1


def always_roll(n):
    return lambda score, opponent_score: n


def make_averaged(original_function, trials_count=1000):
    def averaged(*args):
        return sum(original_function(*args) for _ in range(trials_count)) / trials_count
    return averaged


def max_scoring_num_rolls(dice=six_sided, trials_count=1000):
    averaged = make_averaged(roll_dice, trials_count)
    return max(range(1, 11), key=lambda n: (averaged(n, dice), -n))


def winner(strategy0, strategy1):
    score0, score1 = play(strategy0, strategy1)
    return 0 if score0 > score1 else 1


def average_win_rate(strategy, baseline=always_roll(6)):
    win_rate_as_player_0 = 1 - make_averaged(winner, 200)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner, 200)(baseline, strategy)
    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def run_experiments():
    print('Max scoring num rolls for six-sided dice:', max_scoring_num_rolls(six_sided))
    print('always_roll(8) win rate:', average_win_rate(always_roll(8)))


def bacon_strategy(score, opponent_score, cutoff=8, num_rolls=max_scoring_num_rolls()):
    return 0 if free_bacon(opponent_score) >= cutoff else num_rolls


@trace
def final_strategy(score, opponent_score):
    if extra_turn(score + free_bacon(opponent_score), opponent_score):
        return 0
    return bacon_strategy(score, opponent_score, 8, 6)


run_experiments()
print(final_strategy(10, 19))

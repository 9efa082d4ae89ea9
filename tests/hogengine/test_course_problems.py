"""The course's own cases for Problems 0-12 of seed 004, as doctests against `hogengine.course` imported
as `hog`: the seed's examples and the course's documented answers, compared as the course compares them
(by what the interpreter prints, so `np.True_` where `True` is due fails as it would there)."""

import doctest

import pytest

import hogengine.course as hog
from hogengine.course import dice

PROBLEMS = {
    "00 test dice cycle through their outcomes": """
>>> test_dice = make_test_dice(4, 1, 2)
>>> test_dice(), test_dice(), test_dice(), test_dice()
(4, 1, 2, 4)
>>> make_test_dice()
Traceback (most recent call last):
AssertionError: You must supply outcomes to make_test_dice
>>> make_test_dice(3, 0)
Traceback (most recent call last):
AssertionError: Outcome is not a positive integer
>>> dice.make_fair_dice(0)
Traceback (most recent call last):
AssertionError: Illegal value for sides
""",
    "01 roll_dice sums, or Pig Out scores 1, after rolling every die": """
>>> roll_dice(2, make_test_dice(3, 4))
7
>>> roll_dice(2, make_test_dice(4, 6, 1))
10
>>> roll_dice(3, make_test_dice(4, 6, 1))
1
>>> roll_dice(4, make_test_dice(2, 2, 3))
9
>>> roll_dice(4, make_test_dice(1, 2, 3))
1
>>> counted_dice = make_test_dice(4, 1, 2, 6)
>>> roll_dice(3, counted_dice)
1
>>> roll_dice(1, counted_dice)
6
>>> roll_dice(9, make_test_dice(6))
54
>>> roll_dice(7, make_test_dice(2, 2, 2, 2, 2, 2, 1))
1
>>> roll_dice(5, make_test_dice(4, 2, 3, 3, 4, 1))
16
>>> cycling = make_test_dice(5, 4, 3, 2, 1)
>>> [roll_dice(n, cycling) for n in (1, 4, 2, 3, 3, 2, 4, 1, 5, 10)]
[5, 1, 9, 1, 12, 1, 14, 1, 1, 1]
>>> roll_dice(0, make_test_dice(3))
Traceback (most recent call last):
AssertionError: Must roll at least once.
>>> roll_dice(2.0, make_test_dice(3))
Traceback (most recent call last):
AssertionError: num_rolls must be an integer.
""",
    "02 free_bacon is 3 + the digit of pi at the opponent's score": """
>>> [free_bacon(score) for score in (0, 1, 2, 3, 4, 13, 42, 44, 37, 40, 24, 46, 99, 10, 47, 67, 92, 85)]
[6, 4, 7, 4, 8, 10, 12, 12, 4, 4, 6, 6, 10, 8, 10, 11, 7, 3]
>>> FIRST_101_DIGITS_OF_PI
31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679
>>> free_bacon(100)
Traceback (most recent call last):
AssertionError: The game should be over.
""",
    "03 take_turn rolls the dice or takes Free Bacon": """
>>> take_turn(2, 0, make_test_dice(4, 5, 1))
9
>>> take_turn(3, 0, make_test_dice(4, 6, 1))
1
>>> take_turn(0, 2), take_turn(0, 0), take_turn(0, 1)
(7, 6, 4)
>>> take_turn(2, 0, make_test_dice(6)), take_turn(9, 0, make_test_dice(4)), take_turn(8, 0, make_test_dice(5))
(12, 36, 40)
>>> take_turn(-1, 0)
Traceback (most recent call last):
AssertionError: Cannot roll a negative number of dice in take_turn.
>>> take_turn(11, 0)
Traceback (most recent call last):
AssertionError: Cannot roll more than 10 dice.
>>> take_turn(3, 100)
Traceback (most recent call last):
AssertionError: The game should be over.
>>> def roll_dice(num_rolls, dice):
...     print("Called roll dice!")
...     return 9002
>>> hog.roll_dice, old_roll_dice = roll_dice, hog.roll_dice
>>> hog.take_turn(5, 0)
Called roll dice!
9002
>>> hog.roll_dice = old_roll_dice
""",
    "04a swine_align: both scores positive and their GCD at least 10": """
>>> swine_align(30, 45), swine_align(35, 45)
(True, False)
>>> [swine_align(*scores) for scores in [(8, 36), (20, 30), (24, 36), (36, 36), (15, 0)]]
[False, True, True, True, False]
>>> [swine_align(*scores) for scores in [(2, 4), (11, 22), (27, 13), (12, 72), (10, 10), (91, 78)]]
[False, True, False, True, True, True]
""",
    "04b pig_pass: behind the opponent by less than 3": """
>>> [pig_pass(score, 12) for score in (9, 10, 11, 12, 13)]
[False, True, True, False, False]
>>> [pig_pass(*scores) for scores in [(11, 10), (7, 10), (28, 30), (29, 30), (96, 98), (3, 92)]]
[False, False, True, True, True, False]
>>> extra_turn(30, 45), extra_turn(28, 30), extra_turn(8, 36)
(True, True, False)
>>> other(0), other(1)
(1, 0)
""",
    "05 play takes turns to the goal, extra turns stacking": """
>>> always_three = make_test_dice(3)
>>> always = always_roll
>>> play(always(5), always(3), score0=91, score1=10, dice=always_three)
(106, 10)
>>> play(always(5), always(5), goal=10, dice=always_three)
(15, 0)
>>> play(always(5), always(5), goal=25, dice=always_three)
(15, 30)
>>> play(always(5), always(5), goal=15, dice=always_three)
(15, 0)
>>> strat0 = lambda score, opponent: opponent % 10
>>> strat1 = lambda score, opponent: max((score // 10) - 4, 0)
>>> play(strat0, strat1, score0=71, score1=80, dice=make_test_dice(7))
(83, 108)
>>> play(always(4), always(4), score0=88, score1=87, dice=always_three)
(100, 87)
>>> play(always(0), always(0), score0=8, score1=95, dice=always_three)
(12, 107)
>>> play(always(1), always(1), goal=25, dice=make_test_dice(5, 10, 3, 1, 11, 6))
(26, 10)
>>> play(always(5), always(5), goal=200, dice=always_three)
(15, 210)
>>> play(always(5), always(5), score0=100, dice=always_three)
(100, 0)
""",
    "06 play calls the commentary after every turn": """
>>> def echo(s0, s1):
...     print(s0, s1)
...     return echo
>>> play(always_roll(1), always_roll(1), dice=make_test_dice(3), goal=5, say=echo)
3 0
3 3
6 3
(6, 3)
>>> def count(n):
...     def say(s0, s1):
...         print(n, s0)
...         return count(n + 1)
...     return say
>>> play(always_roll(1), always_roll(1), dice=make_test_dice(5), goal=10, say=count(1))
1 5
2 5
3 10
(10, 5)
>>> strat0 = lambda score, opponent: 1 - opponent // 10
>>> play(strat0, always_roll(3), dice=make_test_dice(4, 2, 6), goal=15, say=echo)
4 0
4 12
16 12
(16, 12)
>>> def total(s0, s1):
...     print(s0 + s1)
...     return echo
>>> def echo(s0, s1):
...     print(s0, s1)
...     return total
>>> _ = play(always_roll(1), always_roll(1), dice=make_test_dice(2, 5), goal=10, say=echo)
2 0
7
4 5
14
9 7
21
>>> _ = play(always_roll(3), always_roll(3), dice=make_test_dice(1, 2, 3, 3), goal=8,
...          say=both(say_scores, announce_lead_changes()))
Player 0 now has 1 and Player 1 now has 0
Player 0 takes the lead by 1
Player 0 now has 1 and Player 1 now has 1
Player 0 now has 2 and Player 1 now has 1
Player 0 takes the lead by 1
Player 0 now has 2 and Player 1 now has 9
Player 1 takes the lead by 7
""",
    "07 announce_highest: a player's biggest gain yet": """
>>> f0 = announce_highest(1)
>>> f1 = f0(12, 0)
>>> f2 = f1(12, 9)
9 point(s)! The most yet for Player 1
>>> f3 = f2(20, 9)
>>> f4 = f3(20, 30)
21 point(s)! The most yet for Player 1
>>> f5 = f4(20, 47)
>>> f6 = f5(21, 47)
>>> f7 = f6(21, 77)
30 point(s)! The most yet for Player 1
>>> f2_again = f1(11, 9)
9 point(s)! The most yet for Player 1
>>> _ = play(always_roll(1), always_roll(1), dice=make_test_dice(5, 3, 5), goal=10,
...          say=both(announce_highest(0), announce_highest(1)))
5 point(s)! The most yet for Player 0
3 point(s)! The most yet for Player 1
5 point(s)! The most yet for Player 1
>>> announce_highest(2)
Traceback (most recent call last):
AssertionError: The who argument should indicate a player.
""",
    "08 make_averaged calls the function trials_count times": """
>>> make_averaged(make_test_dice(4, 2, 5, 1), 1000)()
3.0
>>> make_averaged(make_test_dice(3, 1, 5, 6), 1000)()
3.75
>>> make_averaged(roll_dice, 1000)(2, make_test_dice(3, 1, 5, 6))
6.0
>>> hundred = make_averaged(make_test_dice(*range(1, 100)), 5 * 99)
>>> hundred(), hundred()
(50.0, 50.0)
>>> make_averaged(roll_dice, 1)(2, make_test_dice(3, 1, 5, 6))
1.0
>>> make_averaged(roll_dice, 5)(2, make_test_dice(3, 1, 5, 6))
5.0
""",
    "09 max_scoring_num_rolls: the best number of dice, fewer on ties": """
>>> max_scoring_num_rolls(make_test_dice(1, 6))
1
>>> max_scoring_num_rolls(make_test_dice(3), trials_count=1000)
10
>>> max_scoring_num_rolls(make_test_dice(1, 2, 2, 2, 2, 2, 2, 2), trials_count=1000)
4
>>> max_scoring_num_rolls(make_test_dice(*([2] * 55 + [1, 2] * 500)), trials_count=1)
10
>>> max_scoring_num_rolls(make_test_dice(1, 2), trials_count=1000)
1
>>> max_scoring_num_rolls(make_test_dice(*([2] * 100 + [1] * 100)), trials_count=1)
10
>>> max_scoring_num_rolls(make_test_dice(1, 2, 3, 4, 5), trials_count=1000)
3
""",
    "10 bacon_strategy rolls 0 when Free Bacon gives at least cutoff": """
>>> bacon_strategy(0, 9, cutoff=8, num_rolls=5), bacon_strategy(9, 0, cutoff=6, num_rolls=5)
(5, 0)
>>> bacon_strategy(50, 2, cutoff=7, num_rolls=5), bacon_strategy(32, 0, cutoff=8, num_rolls=4)
(0, 4)
>>> bacon_strategy(20, 1, cutoff=1, num_rolls=4)
0
>>> [bacon_strategy(*case) for case in [(44, 47, 0, 4), (37, 12, 8, 10), (40, 15, 13, 9), (24, 3, 8, 1)]]
[0, 0, 9, 1]
>>> [bacon_strategy(*case) for case in [(99, 78, 15, 7), (10, 73, 3, 5), (67, 84, 17, 10), (93, 98, 8, 4)]]
[7, 0, 10, 0]
""",
    "11 extra_turn_strategy rolls 0 for an extra turn, else as bacon_strategy": """
>>> extra_turn_strategy(10, 19, cutoff=8, num_rolls=6), extra_turn_strategy(30, 54, cutoff=7, num_rolls=6)
(0, 6)
>>> extra_turn_strategy(17, 36, cutoff=100, num_rolls=6), extra_turn_strategy(24, 5, cutoff=1, num_rolls=6)
(0, 0)
>>> [extra_turn_strategy(s, o, cutoff=c, num_rolls=n) for s, o, c, n in [(96, 40, 19, 1), (48, 74, 16, 7),
...     (3, 64, 17, 2), (24, 3, 8, 1), (66, 78, 14, 1), (45, 40, 18, 6)]]
[0, 7, 2, 1, 0, 6]
""",
    "12 final_strategy answers every pair of scores with a legal number of dice": """
>>> choices = {final_strategy(score, opponent) for score in range(100) for opponent in range(100)}
>>> choices <= set(range(11)), {type(choice) for choice in choices}
(True, {<class 'int'>})
>>> final_strategy(99, 0) == final_strategy(99, 0)
True
>>> final_strategy(100, 0)
Traceback (most recent call last):
AssertionError: The game should be over.
""",
}


@pytest.mark.parametrize("problem", PROBLEMS)
def test_the_courses_cases_pass_against_hogengine_course(problem: str) -> None:
    names = {name: getattr(hog, name) for name in hog.__all__}
    test = doctest.DocTestParser().get_doctest(
        PROBLEMS[problem], {**names, "hog": hog, "dice": dice}, problem, None, 0
    )
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)

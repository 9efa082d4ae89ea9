"""hogengine: the rules of every seed Hog game, dice, strategies and the exact solver. Pure, no I/O."""

"""`/hog rules`: each rule set explained for players (the binding text is shared/RULES.md)."""

COMMON = (
    "Two players take turns. On your turn choose how many dice to roll (0 to 10); the turn scores "
    "their sum, but any 1 is a **Pig Out**. The first to reach the goal at the end of a turn wins."
)

RULES = {
    "swine-align": (
        "Six-sided dice only. A Pig Out scores 1.",
        "**Free Bacon** (0 dice): 3 + the n-th digit of pi after the point, n = your opponent's score.",
        "**Swine Align**: if both scores are positive and share a factor of 10 or more, go again.",
        "**Pig Pass**: if you end a turn 1 or 2 points behind, go again.",
    ),
    "pork-chop": (
        "A Pig Out scores the number of 1s rolled, at most 11 - the dice rolled.",
        "**Free Bacon** (0 dice): 1 + the largest digit of your opponent's score.",
        "**Hogtimus Prime**: a prime turn score becomes the next prime.",
        "**Hog Wild**: when the scores add up to a multiple of 7 (0 too), the dice are four-sided.",
        "**Swine Swap**: when one score is exactly double the other, they trade places.",
        "**Pork Chop** (-1): your first one scores nothing and swaps the scores; later ones roll 10 dice.",
    ),
    "pig-fest": (
        "A Pig Out scores 1. **Free Bacon** (0 dice): 1 + the largest digit of your opponent's score.",
        "**Hog Wild**: when the scores add up to a multiple of 7 (0 too), the dice are four-sided.",
        "**Swine Swap**: when the last two digits of one score are the other's reversed, they trade places.",
        "**Ham Hijinks** (-1): score 1 and exchange four- and six-sided dice for everyone from now on.",
        "**Pig Fest**: each Pig Out in a row raises your next scoring turn's multiplier, up to x3.",
    ),
    "piggy-back": (
        "A Pig Out scores 0, and **Piggy Back** gives your opponent one point per die you rolled.",
        "**Free Bacon** (0 dice): 1 + the largest digit of your opponent's score.",
        "**Hogtimus Prime**: a prime turn score becomes the next prime.",
        "**Hog Wild**: when the scores add up to a multiple of 7 (0 too), the dice are four-sided.",
        "**Swine Swap**: when the last two digits of one score are the other's reversed, they trade places.",
    ),
}


def explain(rules_id: str) -> str:
    """The rule set in a few lines, after what every Hog game shares."""
    return "\n".join((COMMON, "", *(f"• {line}" for line in RULES[rules_id])))

"""`python -m hogengine.solver.shipped` (`make tables`): make anew every best table shipped with the package
(contest_table.SHIPPED) whose rules or solver code has changed since it was made; the others are kept."""

import sys

from hogengine.game import MAX_GOAL
from hogengine.rules import RULE_SETS
from hogengine.solver.contest_table import _improved, ship, shipped, shipped_path


def main() -> int:
    """Remake the stale tables, saying which; exit status 0."""
    for ruleset in RULE_SETS:
        if shipped(ruleset, MAX_GOAL) is not None:
            print(f"{shipped_path(ruleset).name}: current")
            continue
        print(
            f"{shipped_path(ruleset).name}: making it (half a minute for the largest rule sets)...",
            flush=True,
        )
        ship(ruleset, _improved(ruleset, MAX_GOAL, None))
    return 0


if __name__ == "__main__":
    sys.exit(main())

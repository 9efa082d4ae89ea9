"""Course-shaped files for the sandbox's course modules: students' hog.py files of each semester, written
here in the shape of the real ones (their top-level imports, `@main def run`, `@trace`, the problems'
functions, TEAM_NAME/PLAYER_NAME), and the table each gives when run natively beside this folder's own
`dice.py` and `ucb.py`, which behave as the course's."""

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

FILES = Path(__file__).parent / "course_files"
NATIVE = FILES / "native"
Table = tuple[tuple[int, ...], ...]
SWEEP = (
    "import json, student\n"
    "table = [[student.final_strategy(s, o) for o in range(100)] for s in range(100)]\n"
    "open('table.json', 'w').write(json.dumps(table))\n"
)


class CourseFile(NamedTuple):
    """A file, the rule set it is checked under, the name it gives itself, and for a contest file that
    imports `hog` the student's hog.py it finds beside it when run natively."""

    name: str
    rules: str
    team_name: str | None = None
    hog: str | None = None

    @property
    def source(self) -> bytes:
        return (FILES / self.name).read_bytes()


COURSE_FILES = [
    CourseFile("fa20_solution.py", "swine-align"),
    CourseFile("fa20_template.py", "swine-align"),
    CourseFile("fa20_experiments.py", "swine-align"),
    CourseFile("fa20_final_strategy.py", "swine-align", "Zoë's Pig Pen 🐷", hog="fa20_solution.py"),
    CourseFile("sp17_solution.py", "pork-chop"),
    CourseFile("sp17_hog_contest.py", "pork-chop", "Pork Chop Express"),
    CourseFile("su15_solution.py", "pig-fest"),
    CourseFile("su15_template.py", "pig-fest"),
    CourseFile("sp16_solution.py", "piggy-back"),
]


def native_table(folder: Path, source: bytes, hog: str | None = None) -> Table:
    """The table a file gives run as students run it: imported beside the course's dice.py and ucb.py (and
    the semester's hog.py, for a contest file that imports it), final_strategy called on every pair."""
    for stand_in in NATIVE.glob("*.py"):
        shutil.copy(stand_in, folder / stand_in.name)
    if hog is not None:
        shutil.copy(FILES / hog, folder / "hog.py")
    (folder / "student.py").write_bytes(source)
    subprocess.run([sys.executable, "-c", SWEEP], cwd=folder, check=True, capture_output=True)
    rows = json.loads((folder / "table.json").read_text())
    return tuple(tuple(row) for row in rows)

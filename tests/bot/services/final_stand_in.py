"""A contest final's process that never ends (`python -m tests.bot.services.final_stand_in`): it dies with
its parent as the real one does, reads its job's first line, makes the file HOG_TEST_COMPUTING names to say
it computes, then waits for a signal: a final stopped mid-way, every time."""

import os
import signal
import sys
from pathlib import Path

from bot.services.contests.final_child import dies_with_parent

dies_with_parent()
sys.stdin.buffer.readline()
Path(os.environ["HOG_TEST_COMPUTING"]).touch()
signal.pause()

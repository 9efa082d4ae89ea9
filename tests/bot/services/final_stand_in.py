"""A contest final's process that never ends (`python -m tests.bot.services.final_stand_in`): it reads its
job as the real one does, makes the file HOG_TEST_COMPUTING names to say it computes, then waits for its
stdin to end, which it never does while its parent lives: a final stopped mid-way, every time."""

import os
import sys
from pathlib import Path

sys.stdin.buffer.readline()
Path(os.environ["HOG_TEST_COMPUTING"]).touch()
sys.stdin.buffer.read()

"""`python -m hogengine` is the `hog` command."""

import sys

from hogengine.cli import main

sys.exit(main())

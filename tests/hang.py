"""How long a test waits on work before calling it hung. Never a budget the work must fit in (a machine
shared with other jobs may take many times as long as a quiet one): a test waits on the work itself, and
this only turns a hang into a failure instead of a stalled run."""

HANG = 300.0  # seconds

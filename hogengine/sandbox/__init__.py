"""The strategy sandbox: evaluate an uploaded final_strategy file once, in a locked-down child process.

Layers, outermost first: a fresh isolated interpreter per upload with no environment, no inherited
files and its own session; resource limits; Landlock (best effort); a mandatory seccomp allowlist.
The parent trusts nothing the child reports. See docs/sandbox.md.
"""

from hogengine.sandbox.evaluate import MAX_SOURCE_BYTES, evaluate_strategy, make_undumpable
from hogengine.sandbox.verdict import EvaluationStopped, SandboxUnavailable, Verdict

__all__ = [
    "MAX_SOURCE_BYTES",
    "EvaluationStopped",
    "SandboxUnavailable",
    "Verdict",
    "evaluate_strategy",
    "make_undumpable",
]

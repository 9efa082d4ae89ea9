"""The solver's compiled kernel (`_kernel.c`, built at install): the sweep of strategies against strategies
and the laying of a model's targets. It knows no rule: it walks and copies what the rule code computed."""

from pathlib import Path

__all__ = ["COMPILED", "kernel"]

try:  # by its full name, so that Python's message names the missing module (not a circular import)
    import hogengine.solver._kernel as kernel
except ImportError as error:  # a source tree used without installing it
    raise ImportError(
        "The solver's compiled sweep (hogengine/solver/_kernel.c) is not built: install the project "
        "(`pip install .`, or `pip install -e .` in a source tree; either compiles it with the system's C "
        f"compiler and Python's headers). ({error})"
    ) from error

# The compiled module's file: the solver cache keys stored results on it.
COMPILED = Path(kernel.__file__)

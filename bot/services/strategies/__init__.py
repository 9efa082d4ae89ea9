"""Strategies: uploads checked in the sandbox, their rationing, their exact figures, and their storage."""

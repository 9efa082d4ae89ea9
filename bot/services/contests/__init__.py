"""Contests as the course runs them: entries until a close time, then one final tournament, once."""

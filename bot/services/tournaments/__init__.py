"""Tournaments of a server's stored strategies, exact or sampled, with their progress."""

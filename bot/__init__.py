"""hogbot's upper floors: the game service and storage (floor 2) and the Discord adapter (floor 3)."""

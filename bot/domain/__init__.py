"""Floor 2's shared vocabulary: the frozen domain objects the services hand out and the storage maps rows
to, and the one tree of errors whose text is safe to show a user. No I/O here."""

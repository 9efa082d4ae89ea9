-- The seed of a sampled tournament's dice (hex text, as `hog tournament --seed` takes it), so anyone can
-- play the same games again; NULL for the exact format, and for tournaments stored before seeds were.
-- Portable: PostgreSQL accepts the same statement.

ALTER TABLE tournaments ADD COLUMN seed TEXT;

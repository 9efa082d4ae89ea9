-- The TEAM_NAME a strategy's file defines (seeds 000/003), as the sandbox made it safe to show; NULL when
-- it defines none, and for strategies stored before. (A strategy that answers at random, which pig-fest's
-- contest takes, keeps the tables recorded of it in table_data after its first: no new column.)
-- Portable: ADD COLUMN of a standard type, the same in SQLite and PostgreSQL.

ALTER TABLE strategies ADD COLUMN team_name TEXT;

-- A match keeps its rule set's hidden parts in one generic column, named as the rule set declares them
-- (`State.hidden_by_name`, JSON text: a pair per seat or one shared number), so a new rule set with
-- hidden parts of its own needs no new column. The old per-part columns are copied in, then dropped.
-- Portable: `||` concatenation and DROP COLUMN are accepted by SQLite (3.35+) and PostgreSQL alike.

ALTER TABLE matches ADD COLUMN hidden TEXT NOT NULL DEFAULT '{}';

UPDATE matches SET hidden = '{"pork_chop": [' || chop_used0 || ', ' || chop_used1 || ']}'
WHERE rules = 'pork-chop';

UPDATE matches SET hidden = '{"streak": [' || streak0 || ', ' || streak1 || '], "exchanges": ' || exchanges || '}'
WHERE rules = 'pig-fest';

ALTER TABLE matches DROP COLUMN chop_used0;
ALTER TABLE matches DROP COLUMN chop_used1;
ALTER TABLE matches DROP COLUMN streak0;
ALTER TABLE matches DROP COLUMN streak1;
ALTER TABLE matches DROP COLUMN exchanges;

-- Every pairing of a tournament, so its standings can show who beat whom (the results matrix): the two
-- strategies by place, and each side's result (an exact average win rate, or games won of nine). Stored
-- with the standings; tournaments stored before this have none. Portable: PostgreSQL accepts the same.

CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    a_place INTEGER NOT NULL,
    b_place INTEGER NOT NULL,
    a_result DOUBLE PRECISION NOT NULL,
    b_result DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, a_place, b_place)
);

-- A review waiting or running becomes a job (kind 'review'), and the
-- offers standing in a game (an undo request, a rematch offer) are stored,
-- so that several servers share them: SQLite's migration
-- 0013_review_jobs_and_offers.sql says what each holds.
INSERT INTO jobs (kind, game_id, due)
    SELECT 'review', game_id, requested FROM reviews WHERE pending = 1;

CREATE TABLE offers (
    game_id TEXT NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    color TEXT NOT NULL,
    turn_number BIGINT NOT NULL,
    undos BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);

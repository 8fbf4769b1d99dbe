-- Work that waits for whichever server or worker takes it first: the AI's
-- turn in a game where it is to move (kind 'ai'), taken with `FOR UPDATE
-- SKIP LOCKED` for a while (`taken_until`, renewed while the taker works);
-- a job whose taker stopped renewing it (killed) is taken again.
-- SQLite's schema has the same table (migrations/0012_jobs.sql).

CREATE TABLE jobs (
    kind TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    due BIGINT NOT NULL,
    taken_by TEXT,
    taken_until BIGINT,
    PRIMARY KEY (kind, game_id)
);
CREATE INDEX jobs_due ON jobs (due);

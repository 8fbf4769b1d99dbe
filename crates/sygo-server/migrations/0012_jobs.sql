-- Work that waits for whichever server or worker takes it first: the AI's
-- turn in a game where it is to move (kind 'ai'). With several servers on
-- one database (PostgreSQL), a server or `sygo worker` takes a job for a
-- while (`taken_until`, renewed while it works); a job whose taker stopped
-- renewing it (killed) is taken again. One job a kind and game.

CREATE TABLE jobs (
    kind TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    -- Unix milliseconds from which it may be taken.
    due INTEGER NOT NULL,
    -- The server or worker that has it, until when (Unix milliseconds).
    taken_by TEXT,
    taken_until INTEGER,
    PRIMARY KEY (kind, game_id)
) STRICT, WITHOUT ROWID;

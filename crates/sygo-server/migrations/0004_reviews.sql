-- The AI's review of a game (docs/web.md: /review): the request, kept
-- while it waits or runs so that a restart takes it up again, and the
-- result of each position analysed.

CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    -- Unix time in milliseconds of the last request: the queue's order.
    requested INTEGER NOT NULL,
    -- 1 while the review waits or runs, 0 once it has finished.
    pending INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- One row per position of a game's main line that the AI analysed.
CREATE TABLE review_positions (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- The position after this many turns (0: the start).
    turn INTEGER NOT NULL,
    -- The position's hash (its bits as a signed integer): a position that
    -- turns taken back have changed no longer matches and is analysed again.
    hash INTEGER NOT NULL,
    -- Black's win probability, 0 to 1.
    win_rate REAL NOT NULL,
    -- Black's expected margin with the komi, in points.
    score_lead REAL NOT NULL,
    -- The AI's best turn (D5,F7 / pass), NULL where the game is over.
    best TEXT,
    visits INTEGER NOT NULL,
    -- Each point's owner, -100 (White) to 100 (Black), in the order of the
    -- board's points, as a JSON array.
    ownership TEXT NOT NULL,
    PRIMARY KEY (game_id, turn)
) STRICT, WITHOUT ROWID;

-- The games and their turns. A game's position is never stored: it is its
-- start replayed through its turns, which the rules library checks again
-- when the server starts.

CREATE TABLE games (
    -- Eight lowercase hexadecimal digits.
    id TEXT PRIMARY KEY NOT NULL,
    -- 'sygo' or 'hexsygo', and the size (side of the square, base of the hexagon).
    variant TEXT NOT NULL,
    size INTEGER NOT NULL,
    komi REAL NOT NULL,
    -- Each side as the API writes it: {"kind":"human"} or
    -- {"kind":"ai","level":3,"time_ms":1000}.
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    -- The secret of each human side (NULL for the AI and uploaded games).
    black_token TEXT,
    white_token TEXT,
    -- 'played' or 'uploaded'.
    source TEXT NOT NULL,
    -- The starting position as a position string (docs/position-string.md).
    start TEXT NOT NULL,
    -- An uploaded record's text, as uploaded.
    record TEXT,
    -- Unix time in milliseconds.
    created INTEGER NOT NULL
) STRICT;

-- One row per turn; (game_id, number) is the key, so of two submissions of
-- the same turn number exactly one is stored.
CREATE TABLE turns (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 1 for the first turn.
    number INTEGER NOT NULL,
    -- The turn as the protocol writes it: D5,F7 / pass / resign.
    turn TEXT NOT NULL,
    -- Unix time in milliseconds.
    played INTEGER NOT NULL,
    PRIMARY KEY (game_id, number)
) STRICT, WITHOUT ROWID;

-- The etiquette of a real server (docs/web.md: Etiquette): the players'
-- chat, and which game a rematch continues. An aborted game's last turn
-- is 'abort' (by the side that aborted, or the side to move when the server
-- ended an untouched game).

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 1 for the first line.
    number INTEGER NOT NULL,
    -- 'black' or 'white': who wrote it.
    color TEXT NOT NULL,
    -- As written, shown as text (never as HTML).
    text TEXT NOT NULL,
    -- Unix time in milliseconds.
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, number)
) STRICT, WITHOUT ROWID;

-- The game a rematch continues (colours swapped).
ALTER TABLE games ADD COLUMN rematch_of TEXT REFERENCES games (id);

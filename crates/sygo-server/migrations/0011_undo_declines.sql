-- An undo request declined (docs/web.md: Etiquette): the same request is
-- not made again in the same state of the game, across restarts too. One
-- row a game, the last request declined: the side that asked, and the
-- game's count of turns and of undos then.

CREATE TABLE undo_declines (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    -- 'black' or 'white': the side that asked.
    color TEXT NOT NULL,
    -- The turns played when it was declined (the asker's last turn).
    turn_number INTEGER NOT NULL,
    -- The game's count of undos then.
    undos INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

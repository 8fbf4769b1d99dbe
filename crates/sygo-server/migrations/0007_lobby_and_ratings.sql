-- The lobby's challenges and the ratings (docs/web.md: Lobby, Ratings).

-- A rated game's accounts, by colour (NULL for an unrated game): the game
-- changes their ratings when it ends.
ALTER TABLE games ADD COLUMN rated_black INTEGER REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN rated_white INTEGER REFERENCES accounts (id);

CREATE TABLE challenges (
    -- Eight lowercase hexadecimal digits.
    id TEXT PRIMARY KEY NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    -- The account a direct challenge is for (NULL: open to anyone).
    opponent_id INTEGER REFERENCES accounts (id),
    -- The terms as the API takes them, JSON: {"variant", "size", "komi",
    -- "color", "clock", "rated", "min_rating", "max_rating"}.
    terms TEXT NOT NULL,
    -- Unix time in milliseconds.
    created INTEGER NOT NULL,
    -- 'open', 'accepted' or 'withdrawn'.
    state TEXT NOT NULL,
    -- The game an accepted challenge started.
    game_id TEXT REFERENCES games (id)
) STRICT;

-- A player's rating after a rated game: one row per game and account, so
-- that no game counts twice. A player's rating is their latest row.
CREATE TABLE rating_changes (
    game_id TEXT NOT NULL REFERENCES games (id),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    -- 'sygo' or 'hexsygo': each family has its own ratings.
    family TEXT NOT NULL,
    -- The player's result: 1 a win, 0.5 a draw, 0 a loss.
    score REAL NOT NULL,
    -- Glicko-2 after the game.
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    -- Rated games of the family played, this one included.
    games INTEGER NOT NULL,
    -- Unix time in milliseconds.
    at INTEGER NOT NULL,
    -- 1 once the host annulled the game's rating effect (sygo admin annul).
    annulled INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, account_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX rating_changes_by_account ON rating_changes (account_id, family, at);

-- Vacation (docs/web.md: Clocks, "Vacation"): a player switches it on and
-- off; while it is on, the clocks of the account's correspondence games
-- stop on its turns. Times are stored, never countdowns, so that a restart
-- finds every clock and every allowance where it was.

-- Unix time in milliseconds when the account's vacation began, NULL while
-- it is not on vacation.
ALTER TABLE accounts ADD COLUMN vacation_since INTEGER;

-- The account's vacations that ended (switched off, or their allowance used
-- up): what counts against the allowance of 30 days in any 365.
CREATE TABLE vacations (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    -- Unix time in milliseconds.
    started INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    PRIMARY KEY (account_id, started)
) STRICT, WITHOUT ROWID;

-- The time a vacation gave back to the running turn of a correspondence
-- game: when a vacation ends, each game in which the account is to move is
-- credited with the part of its turn spent on vacation. `turn` is the
-- number of turns played when it was credited: a credit counts only for
-- that turn (the deadline is the turn's start, plus the time left, plus
-- the credit).
CREATE TABLE clock_credits (
    game_id TEXT NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL,
    -- Milliseconds, the sum of every vacation credited to that turn.
    credit_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn)
) STRICT, WITHOUT ROWID;

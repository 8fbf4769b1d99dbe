-- Accounts, their sessions, and the sides of games they hold (docs/web.md:
-- Accounts). A side's token still lets whoever holds it play that side; an
-- account that holds a side gives its token to every browser signed in.

CREATE TABLE accounts (
    id INTEGER PRIMARY KEY NOT NULL,
    -- As written at sign-up: 3 to 20 letters, digits, '_' or '-'.
    name TEXT NOT NULL,
    -- The name in lower case: two accounts never share it.
    name_key TEXT NOT NULL UNIQUE,
    -- Argon2id as a PHC string (the parameters, the salt and the hash).
    password_hash TEXT NOT NULL,
    -- Unix time in milliseconds.
    created INTEGER NOT NULL,
    -- 1 once the host disabled the account (sygo admin disable).
    disabled INTEGER NOT NULL DEFAULT 0
) STRICT;

-- A signed-in browser. Only a hash of the cookie's secret is kept.
CREATE TABLE sessions (
    -- SHA-256 of the secret, as 64 hexadecimal digits.
    secret_hash TEXT PRIMARY KEY NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    -- Unix time in milliseconds.
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The sides of games that accounts hold: one account a side at most.
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 'black' or 'white'.
    color TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    -- Unix time in milliseconds of the claim.
    claimed INTEGER NOT NULL,
    PRIMARY KEY (game_id, color)
) STRICT, WITHOUT ROWID;
CREATE INDEX seats_by_account ON seats (account_id);

-- The schema of a PostgreSQL store: the same tables, columns and keys as
-- the SQLite store's migrations 0001 to 0011 (read those for what each
-- column holds). Integers are BIGINT (SQLite's INTEGER), flags BIGINT 0 or 1,
-- so that the server's statements are the same on both stores.

CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    variant TEXT NOT NULL,
    size BIGINT NOT NULL,
    komi DOUBLE PRECISION NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    black_token TEXT,
    white_token TEXT,
    source TEXT NOT NULL,
    start TEXT NOT NULL,
    record TEXT,
    created BIGINT NOT NULL,
    request_id TEXT,
    undos BIGINT NOT NULL DEFAULT 0,
    time_control TEXT,
    rated_black BIGINT,
    rated_white BIGINT,
    rematch_of TEXT REFERENCES games (id)
);
CREATE UNIQUE INDEX games_request_id ON games (request_id);

CREATE TABLE turns (
    game_id TEXT NOT NULL REFERENCES games (id),
    number BIGINT NOT NULL,
    turn TEXT NOT NULL,
    played BIGINT NOT NULL,
    color TEXT,
    clock TEXT,
    PRIMARY KEY (game_id, number)
);

CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    requested BIGINT NOT NULL,
    pending BIGINT NOT NULL
);

CREATE TABLE review_positions (
    game_id TEXT NOT NULL REFERENCES games (id),
    turn BIGINT NOT NULL,
    hash BIGINT NOT NULL,
    win_rate DOUBLE PRECISION NOT NULL,
    score_lead DOUBLE PRECISION NOT NULL,
    best TEXT,
    visits BIGINT NOT NULL,
    ownership TEXT NOT NULL,
    PRIMARY KEY (game_id, turn)
);

CREATE TABLE accounts (
    id BIGINT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created BIGINT NOT NULL,
    disabled BIGINT NOT NULL DEFAULT 0,
    vacation_since BIGINT
);
ALTER TABLE games ADD FOREIGN KEY (rated_black) REFERENCES accounts (id);
ALTER TABLE games ADD FOREIGN KEY (rated_white) REFERENCES accounts (id);

CREATE TABLE sessions (
    secret_hash TEXT PRIMARY KEY NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    color TEXT NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    claimed BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE INDEX seats_by_account ON seats (account_id);

CREATE TABLE challenges (
    id TEXT PRIMARY KEY NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    opponent_id BIGINT REFERENCES accounts (id),
    terms TEXT NOT NULL,
    created BIGINT NOT NULL,
    state TEXT NOT NULL,
    game_id TEXT REFERENCES games (id)
);

CREATE TABLE rating_changes (
    game_id TEXT NOT NULL REFERENCES games (id),
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    family TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    at BIGINT NOT NULL,
    annulled BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_changes_by_account ON rating_changes (account_id, family, at);

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id),
    number BIGINT NOT NULL,
    color TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, number)
);

CREATE TABLE conditionals (
    game_id TEXT NOT NULL REFERENCES games (id),
    color TEXT NOT NULL,
    tree TEXT NOT NULL,
    PRIMARY KEY (game_id, color)
);

CREATE TABLE vacations (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    started BIGINT NOT NULL,
    ended BIGINT NOT NULL,
    PRIMARY KEY (account_id, started)
);

CREATE TABLE clock_credits (
    game_id TEXT NOT NULL REFERENCES games (id),
    turn BIGINT NOT NULL,
    credit_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, turn)
);

CREATE TABLE undo_declines (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    color TEXT NOT NULL,
    turn_number BIGINT NOT NULL,
    undos BIGINT NOT NULL
);

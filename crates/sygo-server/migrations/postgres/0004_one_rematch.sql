-- A game has at most one rematch: SQLite's migration 0014_one_rematch.sql
-- says why.
UPDATE games SET rematch_of = NULL
    WHERE rematch_of IS NOT NULL
    AND EXISTS (SELECT 1 FROM games AS first
        WHERE first.rematch_of = games.rematch_of
        AND (first.created < games.created
            OR (first.created = games.created AND first.id < games.id)));

CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of);

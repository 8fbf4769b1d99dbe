-- A game has at most one rematch. Two servers on one database could each
-- start one when both sides' clicks (or a click against the AI) reached
-- them at once; this index refuses the second, and the server that tried
-- answers with the first.
--
-- Should a database already hold two rematches of one game, the later
-- ones stop being its rematch (they stay, as games of their own).
UPDATE games SET rematch_of = NULL
    WHERE rematch_of IS NOT NULL
    AND EXISTS (SELECT 1 FROM games AS first
        WHERE first.rematch_of = games.rematch_of
        AND (first.created < games.created
            OR (first.created = games.created AND first.id < games.id)));

CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of);

-- Two things that lived in one server's memory move to the database, so
-- that several servers on one database (PostgreSQL) share them and a
-- restart keeps them.
--
-- 1. A review waiting or running is a job (kind 'review', due when it was
--    asked for: the queue's order), taken by whichever server or worker
--    plays the AI, as the AI's turns are (0012_jobs.sql).
INSERT INTO jobs (kind, game_id, due)
    SELECT 'review', game_id, requested FROM reviews WHERE pending = 1;

-- 2. The offers standing in a game: an undo request (kind 'undo') and a
--    rematch offer (kind 'rematch'), one of each kind a game. An offer holds
--    only while the game is as it was when made (`turn_number` turns played,
--    `undos` undos): a turn or an undo since makes it stale, ignored, and
--    replaced by the next one.
CREATE TABLE offers (
    game_id TEXT NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    -- `black` or `white`: the side that made it.
    color TEXT NOT NULL,
    turn_number INTEGER NOT NULL,
    undos INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
) STRICT, WITHOUT ROWID;

-- The request id a client may send with POST /api/games, so that a repeated
-- request (a double click, a retry after a lost answer) gets the game the
-- first one created instead of a second game. NULL for games created
-- without one and for uploaded records. As secret as the tokens: whoever
-- sends it gets them.
ALTER TABLE games ADD COLUMN request_id TEXT;
CREATE UNIQUE INDEX games_request_id ON games (request_id);

-- A game's request id is stored as its SHA-256 digest from now on, as a
-- session's secret is, so that the database file does not hold it. The ids
-- stored before are forgotten: a request id only matters for the seconds in
-- which a client sends its creation again.
UPDATE games SET request_id = NULL;

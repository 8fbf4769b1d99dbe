-- Resigning at any time and taking turns back (docs/web.md: /resign, /undo).

-- Who played the turn: 'black' or 'white' (NULL in rows written before this
-- column: the colours then alternate from the start). A resignation may be
-- played out of turn, so its player is stored.
ALTER TABLE turns ADD COLUMN color TEXT;

-- How many times turns were taken back in this game (each undo adds one):
-- with the number of turns it orders the game's states, so that a page
-- never takes an older state for a newer one.
ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;

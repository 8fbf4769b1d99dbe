-- Clocks (docs/web.md: Clocks). A game's time control, and with every turn
-- each side's time left as of that turn's end: the deadline of the side to
-- move is the last turn's time plus its time left, so it is kept as it
-- stood across a restart.

-- The time control as the API writes it, NULL for a game without a clock:
-- {"kind":"fischer","main_ms":600000,"increment_ms":5000}.
ALTER TABLE games ADD COLUMN time_control TEXT;

-- Each side's milliseconds and byo-yomi periods left after this turn, NULL
-- for a game without a clock: {"left":[540000,600000],"periods":[0,0]}.
-- A turn 'timeout' is a side that ran out of time (its color).
ALTER TABLE turns ADD COLUMN clock TEXT;

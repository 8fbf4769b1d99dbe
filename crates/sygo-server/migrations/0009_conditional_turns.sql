-- Conditional turns (docs/web.md: Conditional turns): each side's tree of
-- answers left in advance, secret to the other side.
CREATE TABLE conditionals (
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 'black' or 'white': whose answers.
    color TEXT NOT NULL,
    -- JSON: [{"if": "D4", "then": "E5", "next": [...]}].
    tree TEXT NOT NULL,
    PRIMARY KEY (game_id, color)
) STRICT, WITHOUT ROWID;

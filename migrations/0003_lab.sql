-- The AI lab (docs/PRODUCT.md): lab games, their placements (with the fact sheet the
-- explanation was grounded on) and each placement's explanation.
CREATE TABLE lab_games (
    id          TEXT PRIMARY KEY NOT NULL,
    black_depth INTEGER NOT NULL CHECK (black_depth BETWEEN 1 AND 6),
    white_depth INTEGER NOT NULL CHECK (white_depth BETWEEN 1 AND 6),
    created_at  INTEGER NOT NULL,           -- unix milliseconds
    updated_at  INTEGER NOT NULL
);

-- One row per placement, in order. Passes are not stored: replaying the
-- squares through engine::Game inserts them again.
CREATE TABLE lab_moves (
    game_id      TEXT NOT NULL REFERENCES lab_games(id) ON DELETE CASCADE,
    ply          INTEGER NOT NULL,          -- 1 for the first placement
    side         TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square       INTEGER NOT NULL CHECK (square BETWEEN 0 AND 63),
    facts        TEXT NOT NULL,             -- JSON fact sheet (server::lab::facts::FactSheet)
    at           INTEGER NOT NULL,
    -- The explanation: 'pending' until written, then 'ready' or 'failed'.
    explain_state TEXT NOT NULL DEFAULT 'pending' CHECK (explain_state IN ('pending', 'ready', 'failed')),
    explanation  TEXT,
    lesson       TEXT,
    provider     TEXT,
    explain_error TEXT,                     -- sanitized message when 'failed'
    explained_at INTEGER,
    PRIMARY KEY (game_id, ply)
);

CREATE INDEX lab_games_by_update ON lab_games (updated_at);

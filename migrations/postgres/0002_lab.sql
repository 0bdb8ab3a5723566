-- The AI lab and stored analyses on PostgreSQL, shared by every instance (the
-- same tables as the SQLite schema's 0003, 0008, 0009 and 0012), plus what
-- instances need to share them: each lab game's version (grows by one with
-- every write: a placement, an explanation's outcome, a retry; a write checks
-- it, so two instances never both step one game) and a lease on each pending
-- explanation (the instance writing it holds it until `claimed_until`; when
-- an instance dies, another takes the explanation once the lease runs out).
CREATE TABLE lab_games (
    id          TEXT PRIMARY KEY NOT NULL,
    black_depth BIGINT NOT NULL CHECK (black_depth BETWEEN 1 AND 6),
    white_depth BIGINT NOT NULL CHECK (white_depth BETWEEN 1 AND 6),
    created_at  BIGINT NOT NULL,            -- unix milliseconds
    updated_at  BIGINT NOT NULL,
    lang        TEXT NOT NULL DEFAULT 'en',
    version     BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX lab_games_by_update ON lab_games (updated_at);

CREATE TABLE lab_moves (
    game_id       TEXT NOT NULL REFERENCES lab_games(id) ON DELETE CASCADE,
    ply           BIGINT NOT NULL,
    side          TEXT NOT NULL CHECK (side IN ('black', 'white')),
    square        BIGINT NOT NULL CHECK (square BETWEEN 0 AND 63),
    facts         TEXT NOT NULL,
    at            BIGINT NOT NULL,
    explain_state TEXT NOT NULL DEFAULT 'pending' CHECK (explain_state IN ('pending', 'ready', 'failed')),
    explanation   TEXT,
    lesson        TEXT,
    provider      TEXT,
    explain_error TEXT,
    explained_at  BIGINT,
    claimed_until BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX lab_moves_pending ON lab_moves (claimed_until) WHERE explain_state = 'pending';

CREATE TABLE lab_owners (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES lab_games(id) ON DELETE CASCADE,
    owner   TEXT NOT NULL
);
CREATE INDEX lab_owners_by_owner ON lab_owners (owner);

CREATE TABLE analyses (
    game       TEXT PRIMARY KEY NOT NULL,
    moves      TEXT NOT NULL,
    result     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

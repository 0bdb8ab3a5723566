-- Challenges (docs/PRODUCT.md, Challenges): a signed-in player asks another
-- by name for a game with a time control, a colour and rated or casual. It
-- waits until accepted (its table is then made and named here), declined,
-- cancelled, or until it expires. `address` is the challenger's, for the cap
-- per address.
CREATE TABLE challenges (
    id           TEXT    PRIMARY KEY NOT NULL,
    challenger   INTEGER NOT NULL,
    challenged   INTEGER NOT NULL,
    address      TEXT,
    base_ms      INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    colour       TEXT    NOT NULL CHECK (colour IN ('black', 'white', 'random')),
    rated        INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled')),
    table_id     TEXT,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL,
    answered_at  INTEGER
);
CREATE INDEX challenges_challenged ON challenges (challenged, status);
CREATE INDEX challenges_challenger ON challenges (challenger, status);

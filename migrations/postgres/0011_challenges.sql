-- Challenges (see migrations/0021_challenges.sql): a signed-in player asks another
-- by name for a game with a time control, a colour and rated or casual. It
-- waits until accepted (its table is then made and named here), declined,
-- cancelled, or until it expires. `address` is the challenger's, for the cap
-- per address.
CREATE TABLE challenges (
    id           TEXT    PRIMARY KEY NOT NULL,
    challenger   BIGINT NOT NULL,
    challenged   BIGINT NOT NULL,
    address      TEXT,
    base_ms      BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    colour       TEXT    NOT NULL CHECK (colour IN ('black', 'white', 'random')),
    rated        BIGINT NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled')),
    table_id     TEXT,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    answered_at  BIGINT
);
CREATE INDEX challenges_challenged ON challenges (challenged, status);
CREATE INDEX challenges_challenger ON challenges (challenger, status);

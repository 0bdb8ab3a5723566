-- Tournaments (see migrations/0020_tournaments.sql): Swiss events of a fixed number
-- of rounds, created by a player or by the server's schedule. Every player is
-- an account. A round's pairings are written in one transaction with the
-- tournament's move to that round (`round`), so a round is paired once; each
-- game is an ordinary online table (`table_id`), its result copied here from
-- the archive when it ends, its discs counted by the tournament's rule.
CREATE TABLE tournaments (
    id           TEXT    PRIMARY KEY NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('swiss', 'arena')),
    name         TEXT    NOT NULL,
    creator      BIGINT,
    address      TEXT,
    base_ms      BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    rated        BIGINT NOT NULL,
    private      BIGINT NOT NULL,
    rounds       BIGINT NOT NULL,
    multiplier   BIGINT NOT NULL,
    starts_at    BIGINT NOT NULL,
    ends_at      BIGINT,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'running', 'finished')),
    round        BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    finished_at  BIGINT
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);

CREATE TABLE tournament_players (
    tournament_id TEXT    NOT NULL,
    account_id    BIGINT NOT NULL,
    rating        DOUBLE PRECISION    NOT NULL,
    withdrawn     BIGINT NOT NULL,
    joined_at     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players (account_id);

CREATE TABLE tournament_games (
    tournament_id TEXT    NOT NULL,
    round         BIGINT NOT NULL,
    black         BIGINT NOT NULL,
    white         BIGINT,
    table_id      TEXT,
    black_points  BIGINT,
    white_points  BIGINT,
    black_discs   BIGINT,
    white_discs   BIGINT,
    PRIMARY KEY (tournament_id, round, black)
);
CREATE INDEX tournament_games_table ON tournament_games (table_id);

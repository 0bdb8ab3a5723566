-- Fair play, shared by every instance (see migrations/0018_fair_play.sql).
--
-- account_links: where an account was seen — a keyed hash of the address
-- (IPv4, or the IPv6 /64: 'ip:<hex>') or of a browser's device cookie
-- ('dev:<hex>') — and when last; kept 30 days. Rated pairing never pairs two
-- accounts that share a link within that time.
CREATE TABLE account_links (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    link       TEXT    NOT NULL,
    seen_at    BIGINT NOT NULL,
    PRIMARY KEY (account_id, link)
);
CREATE INDEX account_links_link ON account_links (link, seen_at);

-- Marked by an operator as a rating abuser (ms; NULL: not marked): its rated
-- results stop counting for its opponents and it leaves the leaderboard.
ALTER TABLE accounts ADD COLUMN abuser_at BIGINT;

-- A deleted or closed account leaves its id and a hash of its folded name,
-- so the name is never taken again (old links never show a stranger).
CREATE TABLE account_tombstones (
    id        BIGINT PRIMARY KEY NOT NULL,
    name_hash TEXT    NOT NULL UNIQUE,
    reason    TEXT    NOT NULL,
    at        BIGINT NOT NULL
);

-- Reports of a player (from a profile or an online table) and the operator's
-- log of every action taken with `othello-server admin`.
CREATE TABLE reports (
    id          BIGSERIAL PRIMARY KEY,
    account_id  BIGINT NOT NULL,
    reporter    TEXT    NOT NULL,
    address     TEXT,
    table_id    TEXT,
    reason      TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_at  BIGINT NOT NULL,
    closed_at   BIGINT
);
CREATE INDEX reports_open ON reports (closed_at, created_at);
CREATE INDEX reports_address ON reports (address, created_at);

CREATE TABLE admin_log (
    id         BIGSERIAL PRIMARY KEY,
    at         BIGINT NOT NULL,
    action     TEXT    NOT NULL,
    account_id BIGINT,
    detail     TEXT    NOT NULL
);

-- The key of the address hashes, made once and shared by every instance.
CREATE TABLE site_secrets (
    name  TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

-- Fair play (docs/SECURITY.md, "Accounts and ratings").
--
-- account_links: where an account was seen — a keyed hash of the address
-- (IPv4, or the IPv6 /64: 'ip:<hex>') or of a browser's device cookie
-- ('dev:<hex>') — and when last; kept 30 days. Rated pairing never pairs two
-- accounts that share a link within that time.
CREATE TABLE account_links (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    link       TEXT    NOT NULL,
    seen_at    INTEGER NOT NULL,
    PRIMARY KEY (account_id, link)
);
CREATE INDEX account_links_link ON account_links (link, seen_at);

-- Marked by an operator as a rating abuser (ms; NULL: not marked): its rated
-- results stop counting for its opponents and it leaves the leaderboard.
ALTER TABLE accounts ADD COLUMN abuser_at INTEGER;

-- A deleted or closed account leaves its id and a hash of its folded name,
-- so the name is never taken again (old links never show a stranger).
CREATE TABLE account_tombstones (
    id        INTEGER PRIMARY KEY NOT NULL,
    name_hash TEXT    NOT NULL UNIQUE,
    reason    TEXT    NOT NULL,
    at        INTEGER NOT NULL
);

-- Reports of a player (from a profile or an online table) and the operator's
-- log of every action taken with `othello-server admin`.
CREATE TABLE reports (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL,
    reporter    TEXT    NOT NULL,
    address     TEXT,
    table_id    TEXT,
    reason      TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    closed_at   INTEGER
);
CREATE INDEX reports_open ON reports (closed_at, created_at);
CREATE INDEX reports_address ON reports (address, created_at);

CREATE TABLE admin_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    account_id INTEGER,
    detail     TEXT    NOT NULL
);

-- The key of the address hashes, made once and shared by every instance.
CREATE TABLE site_secrets (
    name  TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);

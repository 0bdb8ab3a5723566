-- Accounts: a name (shown as chosen, unique ignoring case through name_key)
-- and an Argon2id hash (PHC string; never the password). account_sessions
-- maps the SHA-256 of a signed-in browser's cookie token to its account; a
-- browser signed out (or every browser, "sign out everywhere") loses its row.
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL
);

CREATE TABLE account_sessions (
    token      TEXT    PRIMARY KEY NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);

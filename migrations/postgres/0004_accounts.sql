-- Accounts, shared by every instance (see migrations/0014_accounts.sql).
CREATE TABLE accounts (
    id            BIGSERIAL PRIMARY KEY,
    name          TEXT   NOT NULL,
    name_key      TEXT   NOT NULL UNIQUE,
    password_hash TEXT   NOT NULL,
    created_at    BIGINT NOT NULL
);

CREATE TABLE account_sessions (
    token      TEXT   PRIMARY KEY NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen  BIGINT NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);

-- Bot accounts and their API tokens (SQLite's 0030_bots.sql, which explains
-- them): the `bot` flag on accounts and the `bot_tokens` table (tokens
-- stored by their SHA-256 only).
ALTER TABLE accounts ADD COLUMN bot BIGINT NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));

CREATE TABLE bot_tokens (
    id          TEXT   PRIMARY KEY NOT NULL,
    token_hash  TEXT   NOT NULL UNIQUE,
    account_id  BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    label       TEXT   NOT NULL,
    created_at  BIGINT NOT NULL,
    last_used   BIGINT,
    revoked_at  BIGINT
);
CREATE INDEX bot_tokens_account ON bot_tokens (account_id, created_at);

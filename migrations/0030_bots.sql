-- Bot accounts and their API tokens (issue 70; docs/PROTOCOL.md, Bot API).
-- `accounts.bot`: 1 once the account became a bot — irreversibly, and only
-- before it played any game. A bot plays through the Bot API alone, with a
-- bearer token; the web's game commands refuse it.
-- `bot_tokens`: a bot's tokens. The token itself is shown once and never
-- stored: `token_hash` is its SHA-256 (hex), which is all a request's
-- bearer token is looked up by. `id` is a short public name for the token
-- (what the account page revokes it by); `last_used` is updated at most
-- once a minute; `revoked_at` set means the token no longer works. The
-- tokens go with their account.
-- PostgreSQL's twin is migrations/postgres/0021_bots.sql.
ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));

CREATE TABLE bot_tokens (
    id          TEXT    PRIMARY KEY NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE,
    account_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    label       TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    last_used   INTEGER,
    revoked_at  INTEGER
);
CREATE INDEX bot_tokens_account ON bot_tokens (account_id, created_at);

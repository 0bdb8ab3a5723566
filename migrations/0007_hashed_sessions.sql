-- Sessions are now stored by the SHA-256 of their token (never the token), and
-- only once they own something. Rows written before held raw tokens and one row
-- per cookieless request: drop them. Tables keep their seat holders; a holder
-- from before this migration will not be recognised again (their cookie now
-- stands for the hash), so their tables simply expire.
DELETE FROM sessions;
CREATE INDEX IF NOT EXISTS sessions_last_seen ON sessions (last_seen);

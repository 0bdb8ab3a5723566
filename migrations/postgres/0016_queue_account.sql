-- A quick-match player's account (NULL: an anonymous browser) beside its
-- session, so the rated queue's fair-play look compares account ids instead
-- of building the `account:<id>` text in SQL (server/src/store/pg/cluster.rs,
-- UNLINKED). Rows already waiting get theirs from the session's text.
ALTER TABLE queue ADD COLUMN account_id BIGINT;
UPDATE queue SET account_id = substr(session, 9)::BIGINT
    WHERE session ~ '^account:[0-9]{1,18}$';

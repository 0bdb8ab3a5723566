-- The reason 'forfeit' (SQLite's 0029_forfeit.sql, which explains it): the
-- reason's CHECK of `rounds` and `archived_games` takes it.
ALTER TABLE rounds DROP CONSTRAINT rounds_reason_check;
ALTER TABLE rounds ADD CONSTRAINT rounds_reason_check
    CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted', 'forfeit'));
ALTER TABLE archived_games DROP CONSTRAINT archived_games_reason_check;
ALTER TABLE archived_games ADD CONSTRAINT archived_games_reason_check
    CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted', 'forfeit'));

-- A round's result and a rating pool as the database checks them (SQLite's
-- 0024_checked_results.sql, which explains the values kept).
UPDATE rounds SET winner = NULL WHERE winner NOT IN ('black', 'white');
UPDATE rounds SET reason = 'finished'
    WHERE reason NOT IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted');
ALTER TABLE rounds ADD CONSTRAINT rounds_winner_check CHECK (winner IN ('black', 'white'));
ALTER TABLE rounds ADD CONSTRAINT rounds_reason_check
    CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted'));

UPDATE archived_games SET winner = NULL WHERE winner NOT IN ('black', 'white');
UPDATE archived_games SET reason = 'finished'
    WHERE reason NOT IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted');
ALTER TABLE archived_games ADD CONSTRAINT archived_games_winner_check CHECK (winner IN ('black', 'white'));
ALTER TABLE archived_games ADD CONSTRAINT archived_games_reason_check
    CHECK (reason IN ('finished', 'resigned', 'timeout', 'abandoned', 'time', 'aborted'));

DELETE FROM ratings WHERE speed NOT IN ('blitz', 'rapid');
ALTER TABLE ratings ADD CONSTRAINT ratings_speed_check CHECK (speed IN ('blitz', 'rapid'));
DELETE FROM rating_history WHERE speed NOT IN ('blitz', 'rapid');
ALTER TABLE rating_history ADD CONSTRAINT rating_history_speed_check CHECK (speed IN ('blitz', 'rapid'));

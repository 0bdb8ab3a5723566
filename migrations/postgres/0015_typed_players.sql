-- Who played each side of an archived game, in typed columns (SQLite's
-- 0025_typed_players.sql, which explains the columns and how an older text
-- is read): exactly one of `<side>_account`, `<side>_ai`, `<side>_browser`.
ALTER TABLE archived_games
    ADD COLUMN black_account BIGINT,
    ADD COLUMN black_ai      BIGINT  CHECK (black_ai BETWEEN 0 AND 255),
    ADD COLUMN black_browser TEXT,
    ADD COLUMN white_account BIGINT,
    ADD COLUMN white_ai      BIGINT  CHECK (white_ai BETWEEN 0 AND 255),
    ADD COLUMN white_browser TEXT;
UPDATE archived_games SET
    black_account = CASE WHEN black ~ '^account:[0-9]{1,18}$' THEN substr(black, 9)::BIGINT END,
    black_ai = CASE WHEN black ~ '^ai:[0-9]{1,2}$' THEN substr(black, 4)::BIGINT END,
    black_browser = CASE WHEN black !~ '^account:[0-9]{1,18}$' AND black !~ '^ai:[0-9]{1,2}$' THEN black END,
    white_account = CASE WHEN white ~ '^account:[0-9]{1,18}$' THEN substr(white, 9)::BIGINT END,
    white_ai = CASE WHEN white ~ '^ai:[0-9]{1,2}$' THEN substr(white, 4)::BIGINT END,
    white_browser = CASE WHEN white !~ '^account:[0-9]{1,18}$' AND white !~ '^ai:[0-9]{1,2}$' THEN white END;
ALTER TABLE archived_games
    ADD CONSTRAINT archived_games_black_one CHECK (num_nonnulls(black_account, black_ai, black_browser) = 1),
    ADD CONSTRAINT archived_games_white_one CHECK (num_nonnulls(white_account, white_ai, white_browser) = 1);
DROP INDEX IF EXISTS archived_games_black;
DROP INDEX IF EXISTS archived_games_white;
ALTER TABLE archived_games DROP COLUMN black, DROP COLUMN white;
CREATE INDEX archived_games_black_account ON archived_games (black_account, ended_at);
CREATE INDEX archived_games_white_account ON archived_games (white_account, ended_at);
CREATE INDEX archived_games_black_browser ON archived_games (black_browser, ended_at);
CREATE INDEX archived_games_white_browser ON archived_games (white_browser, ended_at);

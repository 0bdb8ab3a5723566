-- Whether bot accounts may enter a tournament (SQLite's
-- 0031_tournament_bots.sql, which explains it).
ALTER TABLE tournaments ADD COLUMN bots BIGINT NOT NULL DEFAULT 0 CHECK (bots IN (0, 1));

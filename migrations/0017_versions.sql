-- The same columns as the PostgreSQL schema, so that the store's queries are
-- written once for both databases: each table's and lab game's version and
-- the explanation lease. On SQLite (one instance) nobody checks them.
ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lab_games ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE lab_moves ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;

-- The same columns as the PostgreSQL schema, so that the store's queries are
-- written once for both databases: each table's and lab game's version (one
-- instance on SQLite reads it only to stay in step with the shared schema)
-- and the explanation lease (on SQLite the one instance holds every lease).
ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE lab_games ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE lab_moves ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;

-- Synchro pairs and random starts (SQLite's 0032_synchro.sql, which
-- explains them).
ALTER TABLE challenges ADD COLUMN random_start BIGINT NOT NULL DEFAULT 0 CHECK (random_start IN (0, 1));
ALTER TABLE challenges ADD COLUMN synchro BIGINT NOT NULL DEFAULT 0 CHECK (synchro IN (0, 1));
ALTER TABLE challenges ADD COLUMN pair_table TEXT;
CREATE INDEX challenges_table ON challenges (table_id);
CREATE INDEX challenges_pair_table ON challenges (pair_table);

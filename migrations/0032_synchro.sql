-- Synchro pairs and random starts (issue 70; docs/PRODUCT.md, Bots: GGS's
-- s8 and s8r). A challenge may ask for a random balanced start
-- (`random_start`: the start is picked from book/balanced-starts.txt when it
-- is accepted) and for a synchro pair (`synchro`: two games at once, colours
-- swapped, from the same start, scored by the disc sum). An accepted pair's
-- first table is `table_id` as for any challenge, its second `pair_table`:
-- the link between the two games (each archived game keeps its table's id,
-- so the archive finds the other game through this row).
-- PostgreSQL's twin is migrations/postgres/0023_synchro.sql.
ALTER TABLE challenges ADD COLUMN random_start INTEGER NOT NULL DEFAULT 0 CHECK (random_start IN (0, 1));
ALTER TABLE challenges ADD COLUMN synchro INTEGER NOT NULL DEFAULT 0 CHECK (synchro IN (0, 1));
ALTER TABLE challenges ADD COLUMN pair_table TEXT;
CREATE INDEX challenges_table ON challenges (table_id);
CREATE INDEX challenges_pair_table ON challenges (pair_table);

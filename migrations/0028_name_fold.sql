-- One folded form of a name decides whether it is taken (issue 66):
-- `name_fold` is the name as the server's `accounts::fold` reads it —
-- lower case; I, i, 1 and | as l; 0 as o; 3 e, 4 a, 5 s, 7 t, 8 b;
-- separators _ - . dropped — and is unique, so "aIice" or "b0b" cannot sign
-- up beside "alice" or "bob". Names that already collide once folded are
-- left as they are: the oldest of each group keeps the folded form (which
-- keeps every new look-alike out), the others hold NULL (a unique index
-- allows any number of NULLs); `othello-server admin name-collisions` lists
-- them. Every account created from now on has its folded form.
-- PostgreSQL's twin is migrations/postgres/0019_name_fold.sql.
ALTER TABLE accounts ADD COLUMN name_fold TEXT;
UPDATE accounts SET name_fold =
    REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(name)
        , '_', '')
        , '-', '')
        , '.', '')
        , '0', 'o')
        , '1', 'l')
        , 'i', 'l')
        , '|', 'l')
        , '3', 'e')
        , '4', 'a')
        , '5', 's')
        , '7', 't')
        , '8', 'b');
CREATE INDEX accounts_name_fold_backfill ON accounts (name_fold);
UPDATE accounts SET name_fold = NULL WHERE EXISTS (
    SELECT 1 FROM accounts older
    WHERE older.name_fold = accounts.name_fold AND older.id < accounts.id
);
DROP INDEX accounts_name_fold_backfill;
CREATE UNIQUE INDEX accounts_name_fold ON accounts (name_fold);

-- Each tournament's Brightwell-quotient rule and why a Swiss ended early
-- (docs/PRODUCT.md, Tournaments). `bq_rule`: which rule its standings use
-- for a game against an opponent who withdrew — 'woc' (that game's discs
-- left out, 32 discs and the player's own points in their place) or
-- 'legacy' (the game's discs kept: the rule the finished ones were
-- published with, so their standings do not change). Every tournament
-- finished before this migration keeps 'legacy'; the others, and every new
-- one, use 'woc'. `ended_early`: why a Swiss ended before its last round —
-- 'exhausted' (every further pairing would repeat a game) or 'too_few'
-- (fewer than two players were left); NULL when it played every round (or
-- is not over). PostgreSQL's twin is migrations/postgres/0018_bq_rule.sql.
ALTER TABLE tournaments ADD COLUMN bq_rule TEXT NOT NULL DEFAULT 'woc'
    CHECK (bq_rule IN ('legacy', 'woc'));
UPDATE tournaments SET bq_rule = 'legacy' WHERE status = 'finished';
ALTER TABLE tournaments ADD COLUMN ended_early TEXT
    CHECK (ended_early IN ('exhausted', 'too_few'));

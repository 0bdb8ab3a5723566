-- Each tournament's Brightwell-quotient rule and why a Swiss ended early
-- (SQLite's 0027, which says what each value means): the finished ones
-- keep 'legacy', the others and every new one use 'woc'.
ALTER TABLE tournaments ADD COLUMN bq_rule TEXT NOT NULL DEFAULT 'woc'
    CHECK (bq_rule IN ('legacy', 'woc'));
UPDATE tournaments SET bq_rule = 'legacy' WHERE status = 'finished';
ALTER TABLE tournaments ADD COLUMN ended_early TEXT
    CHECK (ended_early IN ('exhausted', 'too_few'));

-- The paid explanations' budget, shared by every instance and kept across
-- restarts (docs/SECURITY.md, The lab): N instances do not spend N budgets.
--
-- Explanations started per UTC day (days since 1970-01-01): scope '*' is the
-- server's daily budget, 'ip:<address>' one address's (an IPv4 address or an
-- IPv6 /64). Days before yesterday are deleted as new ones are written.
CREATE TABLE explain_spend (
    day   BIGINT NOT NULL,
    scope TEXT   NOT NULL,
    spent BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, scope)
);

-- Paid explanations being written now, on any instance (the concurrency
-- cap): one row each, deleted when it ends; a row whose lease ran out (its
-- instance died) no longer counts.
CREATE TABLE explain_slots (
    id    TEXT   PRIMARY KEY NOT NULL,
    until BIGINT NOT NULL
);

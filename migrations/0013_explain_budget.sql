-- The paid explanations' budget, in the database so that a restart does not
-- reset it (docs/SECURITY.md, The lab).
--
-- Explanations started per UTC day (days since 1970-01-01): scope '*' is the
-- server's daily budget, 'ip:<address>' one address's (an IPv4 address or an
-- IPv6 /64). Days before yesterday are deleted as new ones are written.
CREATE TABLE explain_spend (
    day   INTEGER NOT NULL,
    scope TEXT    NOT NULL,
    spent INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, scope)
);

-- Paid explanations being written now (the concurrency cap): one row each,
-- deleted when it ends; a row whose lease ran out (its writer died) no longer
-- counts.
CREATE TABLE explain_slots (
    id    TEXT    PRIMARY KEY NOT NULL,
    until INTEGER NOT NULL
);

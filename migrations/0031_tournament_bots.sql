-- Whether bot accounts may enter a tournament (issue 70; docs/PRODUCT.md,
-- Bots): an arena's creator allows them when creating it; a Swiss never
-- does. A bot joins through the Bot API (`POST /api/bot/tournament/{id}/join`).
-- PostgreSQL's twin is migrations/postgres/0022_tournament_bots.sql.
ALTER TABLE tournaments ADD COLUMN bots INTEGER NOT NULL DEFAULT 0 CHECK (bots IN (0, 1));

-- A table's mode in typed columns instead of JSON text (tables and
-- archived_games alike): the kind, the AI's depth and the human's side
-- (vs_ai), whether an online table is a private link, its time control in
-- seconds (NULL: untimed), rated and tournament (0/1). The store maps the
-- columns to `TableMode` in one place (server/src/store/mode.rs); the
-- archive's filter by mode compares the kind instead of matching JSON text.
-- PostgreSQL's twin is migrations/postgres/0013_typed_modes.sql.
ALTER TABLE tables ADD COLUMN mode_kind TEXT NOT NULL DEFAULT 'hot_seat'
    CHECK (mode_kind IN ('vs_ai', 'hot_seat', 'online'));
ALTER TABLE tables ADD COLUMN ai_depth INTEGER CHECK (ai_depth BETWEEN 1 AND 255);
ALTER TABLE tables ADD COLUMN ai_human TEXT CHECK (ai_human IN ('black', 'white'));
ALTER TABLE tables ADD COLUMN private_link INTEGER NOT NULL DEFAULT 0 CHECK (private_link IN (0, 1));
ALTER TABLE tables ADD COLUMN base_s INTEGER CHECK (base_s >= 0);
ALTER TABLE tables ADD COLUMN increment_s INTEGER CHECK (increment_s >= 0);
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE tables ADD COLUMN tournament INTEGER NOT NULL DEFAULT 0 CHECK (tournament IN (0, 1));

UPDATE tables SET
    mode_kind = COALESCE(json_extract(mode, '$.kind'), 'hot_seat'),
    ai_depth = json_extract(mode, '$.depth'),
    ai_human = json_extract(mode, '$.human'),
    private_link = COALESCE(json_extract(mode, '$.private'), 0),
    base_s = json_extract(mode, '$.time.base_s'),
    increment_s = json_extract(mode, '$.time.increment_s'),
    rated = COALESCE(json_extract(mode, '$.rated'), 0),
    tournament = COALESCE(json_extract(mode, '$.tournament'), 0)
WHERE json_valid(mode);
ALTER TABLE tables DROP COLUMN mode;

ALTER TABLE archived_games ADD COLUMN mode_kind TEXT NOT NULL DEFAULT 'hot_seat'
    CHECK (mode_kind IN ('vs_ai', 'hot_seat', 'online'));
ALTER TABLE archived_games ADD COLUMN ai_depth INTEGER CHECK (ai_depth BETWEEN 1 AND 255);
ALTER TABLE archived_games ADD COLUMN ai_human TEXT CHECK (ai_human IN ('black', 'white'));
ALTER TABLE archived_games ADD COLUMN private_link INTEGER NOT NULL DEFAULT 0 CHECK (private_link IN (0, 1));
ALTER TABLE archived_games ADD COLUMN base_s INTEGER CHECK (base_s >= 0);
ALTER TABLE archived_games ADD COLUMN increment_s INTEGER CHECK (increment_s >= 0);
ALTER TABLE archived_games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE archived_games ADD COLUMN tournament INTEGER NOT NULL DEFAULT 0 CHECK (tournament IN (0, 1));

UPDATE archived_games SET
    mode_kind = COALESCE(json_extract(mode, '$.kind'), 'hot_seat'),
    ai_depth = json_extract(mode, '$.depth'),
    ai_human = json_extract(mode, '$.human'),
    private_link = COALESCE(json_extract(mode, '$.private'), 0),
    base_s = json_extract(mode, '$.time.base_s'),
    increment_s = json_extract(mode, '$.time.increment_s'),
    rated = COALESCE(json_extract(mode, '$.rated'), 0),
    tournament = COALESCE(json_extract(mode, '$.tournament'), 0)
WHERE json_valid(mode);
ALTER TABLE archived_games DROP COLUMN mode;
CREATE INDEX archived_games_kind ON archived_games (mode_kind, ended_at);

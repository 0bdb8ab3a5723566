-- A table's mode in typed columns instead of JSON text (SQLite's
-- 0023_typed_modes.sql, which explains the columns).
ALTER TABLE tables ADD COLUMN mode_kind TEXT NOT NULL DEFAULT 'hot_seat'
    CHECK (mode_kind IN ('vs_ai', 'hot_seat', 'online'));
ALTER TABLE tables ADD COLUMN ai_depth BIGINT CHECK (ai_depth BETWEEN 1 AND 255);
ALTER TABLE tables ADD COLUMN ai_human TEXT CHECK (ai_human IN ('black', 'white'));
ALTER TABLE tables ADD COLUMN private_link BIGINT NOT NULL DEFAULT 0 CHECK (private_link IN (0, 1));
ALTER TABLE tables ADD COLUMN base_s BIGINT CHECK (base_s >= 0);
ALTER TABLE tables ADD COLUMN increment_s BIGINT CHECK (increment_s >= 0);
ALTER TABLE tables ADD COLUMN rated BIGINT NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE tables ADD COLUMN tournament BIGINT NOT NULL DEFAULT 0 CHECK (tournament IN (0, 1));

UPDATE tables SET
    mode_kind = COALESCE(m->>'kind', 'hot_seat'),
    ai_depth = (m->>'depth')::bigint,
    ai_human = m->>'human',
    private_link = CASE WHEN m->>'private' = 'true' THEN 1 ELSE 0 END,
    base_s = (m->'time'->>'base_s')::bigint,
    increment_s = (m->'time'->>'increment_s')::bigint,
    rated = CASE WHEN m->>'rated' = 'true' THEN 1 ELSE 0 END,
    tournament = CASE WHEN m->>'tournament' = 'true' THEN 1 ELSE 0 END
FROM (SELECT id AS mid, mode::jsonb AS m FROM tables WHERE mode LIKE '{%}') AS parsed
WHERE tables.id = parsed.mid;
ALTER TABLE tables DROP COLUMN mode;

ALTER TABLE archived_games ADD COLUMN mode_kind TEXT NOT NULL DEFAULT 'hot_seat'
    CHECK (mode_kind IN ('vs_ai', 'hot_seat', 'online'));
ALTER TABLE archived_games ADD COLUMN ai_depth BIGINT CHECK (ai_depth BETWEEN 1 AND 255);
ALTER TABLE archived_games ADD COLUMN ai_human TEXT CHECK (ai_human IN ('black', 'white'));
ALTER TABLE archived_games ADD COLUMN private_link BIGINT NOT NULL DEFAULT 0 CHECK (private_link IN (0, 1));
ALTER TABLE archived_games ADD COLUMN base_s BIGINT CHECK (base_s >= 0);
ALTER TABLE archived_games ADD COLUMN increment_s BIGINT CHECK (increment_s >= 0);
ALTER TABLE archived_games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE archived_games ADD COLUMN tournament BIGINT NOT NULL DEFAULT 0 CHECK (tournament IN (0, 1));

UPDATE archived_games SET
    mode_kind = COALESCE(m->>'kind', 'hot_seat'),
    ai_depth = (m->>'depth')::bigint,
    ai_human = m->>'human',
    private_link = CASE WHEN m->>'private' = 'true' THEN 1 ELSE 0 END,
    base_s = (m->'time'->>'base_s')::bigint,
    increment_s = (m->'time'->>'increment_s')::bigint,
    rated = CASE WHEN m->>'rated' = 'true' THEN 1 ELSE 0 END,
    tournament = CASE WHEN m->>'tournament' = 'true' THEN 1 ELSE 0 END
FROM (SELECT id AS mid, mode::jsonb AS m FROM archived_games WHERE mode LIKE '{%}') AS parsed
WHERE archived_games.id = parsed.mid;
ALTER TABLE archived_games DROP COLUMN mode;
CREATE INDEX archived_games_kind ON archived_games (mode_kind, ended_at);

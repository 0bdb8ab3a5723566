-- A rated quick-match player waits with their rating (NULL in a casual line),
-- so any instance pairs them with the closest rating inside a window that
-- widens as they wait (see server/src/hub/queue.rs, rating_window).
ALTER TABLE queue ADD COLUMN rating DOUBLE PRECISION;

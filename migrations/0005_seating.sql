-- Online seats: since when grace may run (a round in progress with both seats
-- taken), so that grace periods resume exactly after a restart. Any table:
-- the position its rounds start from, in OBF (NULL: the usual start).
ALTER TABLE tables ADD COLUMN running_since INTEGER;
ALTER TABLE tables ADD COLUMN start_obf TEXT;

-- Who created each lab game (the session's token hash): only that session may
-- step it; everyone else watches. Games from before this migration have no
-- owner and are read-only.
CREATE TABLE lab_owners (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES lab_games(id) ON DELETE CASCADE,
    owner   TEXT NOT NULL
);
CREATE INDEX lab_owners_by_owner ON lab_owners (owner);

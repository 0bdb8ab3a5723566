-- Game analysis (issue 16): one stored result per finished game, so a reload
-- shows it without computing again. `game` names the game: `table:<id>:<round>`
-- or `lab:<id>`; `moves` is the transcript the analysis was made of (a result
-- is only shown for the same moves).
CREATE TABLE analyses (
    game       TEXT PRIMARY KEY NOT NULL,
    moves      TEXT NOT NULL,
    result     TEXT NOT NULL,               -- JSON (app::protocol::GameAnalysis)
    created_at INTEGER NOT NULL             -- unix milliseconds
);

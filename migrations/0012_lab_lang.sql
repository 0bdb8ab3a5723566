-- The language a lab game's explanations are written in (`en` or `el`): the
-- creator's page language, kept so that a reload or a restart writes the
-- next explanations in the same language.
ALTER TABLE lab_games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';

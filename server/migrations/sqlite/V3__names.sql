-- Each seat's player's name, as the player gave it (shown to the other seats).
ALTER TABLE seats ADD COLUMN name TEXT NOT NULL DEFAULT '';

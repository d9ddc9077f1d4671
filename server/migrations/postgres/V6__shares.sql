-- Shared game pages (issue 39): a link to a correspondence game (`game_id`) or to a game a
-- device uploaded (`upload`: its record or, for a game with hidden pieces still going on, what a
-- spectator sees, as JSON). An upload's withdrawal key is kept as its hash; a correspondence
-- game's link is withdrawn with a seat's token. A withdrawn link keeps its row (the page answers
-- 410 Gone) but loses its upload.
CREATE TABLE shares (
    id TEXT PRIMARY KEY,
    game_id TEXT REFERENCES games(id),
    upload TEXT,
    names TEXT NOT NULL DEFAULT '[]',
    key_hash BYTEA,
    created_at BIGINT NOT NULL,
    withdrawn_at BIGINT
);
CREATE INDEX shares_by_game ON shares (game_id) WHERE game_id IS NOT NULL;

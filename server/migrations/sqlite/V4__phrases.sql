-- The preset phrases the seats have sent each other, numbered per game from 1.
-- client_phrase_id makes a resend idempotent for the seat that sent it.
CREATE TABLE phrases (
    game_id          TEXT NOT NULL REFERENCES games (id),
    seq              INTEGER NOT NULL,
    seat             INTEGER NOT NULL,
    phrase           TEXT NOT NULL,
    client_phrase_id TEXT NOT NULL,
    at               INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, seat, client_phrase_id)
) WITHOUT ROWID;

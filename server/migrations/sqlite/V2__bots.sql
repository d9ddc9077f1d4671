-- Seats the server's computer players fill, with their strength.
CREATE TABLE bots (
    game_id  TEXT NOT NULL REFERENCES games (id),
    seat     INTEGER NOT NULL,
    strength TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    options       TEXT NOT NULL,
    setup         TEXT NOT NULL,
    days_per_move INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    deadline      INTEGER
);
CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seat       INTEGER NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    joined_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE invites (
    code_hash BLOB PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    used_at   INTEGER
);
CREATE TABLE actions (
    game_id          TEXT NOT NULL REFERENCES games (id),
    ply              INTEGER NOT NULL,
    actor            TEXT NOT NULL,
    action           TEXT NOT NULL,
    client_action_id TEXT,
    at               INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE UNIQUE INDEX actions_by_client_id ON actions (game_id, client_action_id)
    WHERE client_action_id IS NOT NULL;

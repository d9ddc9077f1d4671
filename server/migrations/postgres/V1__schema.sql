-- The same tables as the SQLite store at its version 5, in PostgreSQL's types.
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    options       TEXT NOT NULL,
    setup         TEXT NOT NULL,
    days_per_move BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    deadline      BIGINT
);
CREATE TABLE seats (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seat       SMALLINT NOT NULL,
    token_hash BYTEA NOT NULL UNIQUE,
    joined_at  BIGINT NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE invites (
    code_hash BYTEA PRIMARY KEY,
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      SMALLINT NOT NULL,
    used_at   BIGINT
);
CREATE TABLE actions (
    game_id          TEXT NOT NULL REFERENCES games (id),
    ply              INTEGER NOT NULL,
    actor            TEXT NOT NULL,
    action           TEXT NOT NULL,
    client_action_id TEXT,
    sent             TEXT,
    at               BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE UNIQUE INDEX actions_by_client_id ON actions (game_id, actor, client_action_id)
    WHERE client_action_id IS NOT NULL;
CREATE TABLE bots (
    game_id  TEXT NOT NULL REFERENCES games (id),
    seat     SMALLINT NOT NULL,
    strength TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE phrases (
    game_id          TEXT NOT NULL REFERENCES games (id),
    seq              INTEGER NOT NULL,
    seat             SMALLINT NOT NULL,
    phrase           TEXT NOT NULL,
    client_phrase_id TEXT NOT NULL,
    at               BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, seat, client_phrase_id)
);

-- Libraries of linked devices (issue 21). A device's games, seat tokens and layouts reach its
-- other devices through here as blobs encrypted with a key the server never has: the server
-- sees only opaque slot names, entry ids, sizes and times.

-- One per set of linked devices; `seq` numbers its changes (the last one given out).
CREATE TABLE libraries (
    id         TEXT PRIMARY KEY,
    seq        INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);

-- A device in a library: its token's hash, and its name encrypted with the library's key.
CREATE TABLE devices (
    library_id  TEXT NOT NULL REFERENCES libraries (id),
    id          TEXT NOT NULL,
    token_hash  BLOB NOT NULL UNIQUE,
    name        BLOB NOT NULL,
    linked_at   INTEGER NOT NULL,
    unlinked_at INTEGER,
    PRIMARY KEY (library_id, id)
);

-- A pairing code offered by a device: the hash of what proves the code was typed, and the
-- library key sealed with a key derived from the code. Used once; refused after it expires or
-- after too many wrong proofs.
CREATE TABLE pairings (
    id         TEXT PRIMARY KEY,
    library_id TEXT NOT NULL REFERENCES libraries (id),
    verifier   BLOB NOT NULL,
    envelope   BLOB NOT NULL,
    expires_at INTEGER NOT NULL,
    misses     INTEGER NOT NULL DEFAULT 0
);

-- The newest entry of each slot (a game, a tombstone, a setting, as the devices name it under
-- the library's key); `seq` is the library's change number when it was written.
CREATE TABLE entries (
    library_id TEXT NOT NULL REFERENCES libraries (id),
    slot       TEXT NOT NULL,
    entry      TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    blob       BLOB NOT NULL,
    device_id  TEXT NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (library_id, slot)
);
CREATE INDEX entries_by_seq ON entries (library_id, seq);

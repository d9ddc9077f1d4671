-- Libraries of linked devices (issue 21): the same tables as the SQLite store's version 6.
-- The server stores blobs encrypted with a key it never has.
CREATE TABLE libraries (
    id         TEXT PRIMARY KEY,
    seq        BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE TABLE devices (
    library_id  TEXT NOT NULL REFERENCES libraries (id),
    id          TEXT NOT NULL,
    token_hash  BYTEA NOT NULL UNIQUE,
    name        BYTEA NOT NULL,
    linked_at   BIGINT NOT NULL,
    unlinked_at BIGINT,
    PRIMARY KEY (library_id, id)
);
CREATE TABLE pairings (
    id         TEXT PRIMARY KEY,
    library_id TEXT NOT NULL REFERENCES libraries (id),
    verifier   BYTEA NOT NULL,
    envelope   BYTEA NOT NULL,
    expires_at BIGINT NOT NULL,
    misses     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE entries (
    library_id TEXT NOT NULL REFERENCES libraries (id),
    slot       TEXT NOT NULL,
    entry      TEXT NOT NULL,
    seq        BIGINT NOT NULL,
    blob       BYTEA NOT NULL,
    device_id  TEXT NOT NULL,
    at         BIGINT NOT NULL,
    PRIMARY KEY (library_id, slot)
);
CREATE INDEX entries_by_seq ON entries (library_id, seq);

-- Writes one slot's new entry, numbered with the library's next change number. The library's
-- row is locked first, so that one library's changes commit in the order of their numbers (a
-- reader that has seen number n has seen every change before it). A resend of the entry now
-- there changes nothing; an entry written over anything but the one it was based on raises
-- QG001 (the device reads the newer one, merges, and writes again).
CREATE FUNCTION qiguan_put_entry(lib TEXT, slot_name TEXT, new_entry TEXT, base TEXT,
                                 data BYTEA, device TEXT, stamp BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    current TEXT;
    next BIGINT;
BEGIN
    SELECT seq + 1 INTO next FROM libraries WHERE id = lib FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no library %', lib USING ERRCODE = 'QG001';
    END IF;
    SELECT entry INTO current FROM entries WHERE library_id = lib AND slot = slot_name;
    IF current = new_entry THEN
        RETURN;
    END IF;
    IF current IS DISTINCT FROM base THEN
        RAISE EXCEPTION 'slot % holds a newer entry', slot_name USING ERRCODE = 'QG001';
    END IF;
    UPDATE libraries SET seq = next WHERE id = lib;
    INSERT INTO entries (library_id, slot, entry, seq, blob, device_id, at)
    VALUES (lib, slot_name, new_entry, next, data, device, stamp)
    ON CONFLICT (library_id, slot) DO UPDATE
        SET entry = excluded.entry, seq = excluded.seq, blob = excluded.blob,
            device_id = excluded.device_id, at = excluded.at;
END;
$$;

-- Takes a pairing for use: it must exist and not have expired; it is gone afterwards.
CREATE FUNCTION qiguan_use_pairing(pairing TEXT, now BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM pairings WHERE id = pairing AND expires_at > now;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'pairing % is used or expired', pairing USING ERRCODE = 'QG001';
    END IF;
END;
$$;

-- Marks a device unlinked; raises if it was not linked.
CREATE FUNCTION qiguan_unlink(lib TEXT, device TEXT, now BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    UPDATE devices SET unlinked_at = now
    WHERE library_id = lib AND id = device AND unlinked_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'device % is not linked', device USING ERRCODE = 'QG001';
    END IF;
END;
$$;

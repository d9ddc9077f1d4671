-- The checks a commit makes, as functions, so that a whole commit can be sent at once
-- (pipelined): each raises SQLSTATE QG001 when the game is not as the server judged it, which
-- aborts the transaction, and the server reads the game again.

-- Locks the game's row, then (a statement of its own, so it sees every transaction committed
-- before the lock was granted) compares its numbers of actions and of seats people took.
CREATE FUNCTION qiguan_guard(game TEXT, want_actions BIGINT, want_seats BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    have_actions BIGINT;
    have_seats BIGINT;
BEGIN
    PERFORM 1 FROM games WHERE id = game FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no game %', game USING ERRCODE = 'QG001';
    END IF;
    SELECT count(*) INTO have_actions FROM actions WHERE game_id = game;
    SELECT count(*) INTO have_seats FROM seats WHERE game_id = game;
    IF have_actions <> want_actions OR have_seats <> want_seats THEN
        RAISE EXCEPTION 'game % has % actions and % seats, not % and %',
            game, have_actions, have_seats, want_actions, want_seats
            USING ERRCODE = 'QG001';
    END IF;
END;
$$;

-- Marks an invite used, once: a second use raises.
CREATE FUNCTION qiguan_use_invite(code BYTEA, used BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    UPDATE invites SET used_at = used WHERE code_hash = code AND used_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the invite is used' USING ERRCODE = 'QG001';
    END IF;
END;
$$;

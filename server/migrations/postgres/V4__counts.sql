-- Each game keeps its numbers of actions and of seats people took in its own row, so that the
-- guard of a commit is one update of that row instead of two counts over the game's actions
-- and seats (which grew with every move). The server keeps them: a commit that adds actions
-- or seats to a game either creates the game (with its numbers) or carries the game's guard,
-- which moves the numbers on by what the commit adds.
ALTER TABLE games
    ADD COLUMN action_count INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN seat_count INTEGER NOT NULL DEFAULT 0;

UPDATE games SET
    action_count = (SELECT count(*) FROM actions WHERE actions.game_id = games.id),
    seat_count = (SELECT count(*) FROM seats WHERE seats.game_id = games.id);

-- The guard, from now on: locks the game's row by updating its numbers from what the server
-- judged (want_*) to what the commit makes them (new_*). Under read committed, an update that
-- waited for another transaction's lock on the row sees that transaction's numbers, so two
-- commits judged on the same copy cannot both pass.
DROP FUNCTION qiguan_guard(TEXT, BIGINT, BIGINT);
CREATE FUNCTION qiguan_guard(
    game TEXT, want_actions INTEGER, want_seats INTEGER, new_actions INTEGER, new_seats INTEGER
)
RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    have_actions INTEGER;
    have_seats INTEGER;
BEGIN
    UPDATE games SET action_count = new_actions, seat_count = new_seats
    WHERE id = game AND action_count = want_actions AND seat_count = want_seats;
    IF NOT FOUND THEN
        SELECT action_count, seat_count INTO have_actions, have_seats FROM games WHERE id = game;
        RAISE EXCEPTION 'game % has % actions and % seats, not % and %',
            game, have_actions, have_seats, want_actions, want_seats
            USING ERRCODE = 'QG001';
    END IF;
END;
$$;

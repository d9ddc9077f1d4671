-- A client's action id belongs to the seat that sent it (another seat may use the same id),
-- and the action text as sent is kept, so that a reuse of the id with another action is
-- refused instead of answered with the first one's result.
DROP INDEX actions_by_client_id;
CREATE UNIQUE INDEX actions_by_client_id ON actions (game_id, actor, client_action_id)
    WHERE client_action_id IS NOT NULL;
ALTER TABLE actions ADD COLUMN sent TEXT;

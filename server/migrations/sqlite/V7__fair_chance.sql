-- Provably fair chance (issue 42): the seed each game with chance committed to, each seat's
-- contribution to a deal made when the last seat joins, and each chance action's
-- contributions (a JSON array of strings).
ALTER TABLE games ADD COLUMN chance_seed TEXT;
ALTER TABLE seats ADD COLUMN contribution TEXT;
ALTER TABLE actions ADD COLUMN contributions TEXT;

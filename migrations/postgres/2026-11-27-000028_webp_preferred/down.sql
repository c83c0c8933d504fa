-- The flags stay as marked: the files are the same, and the rule before this one is not needed
-- to read them.
SELECT 1;

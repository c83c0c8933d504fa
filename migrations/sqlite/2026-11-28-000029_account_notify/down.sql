DROP TRIGGER account_changes_delete;
DROP TRIGGER account_changes_update;
DROP TABLE account_changes;

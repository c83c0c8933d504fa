DROP TRIGGER accounts_notify_delete ON users;
DROP TRIGGER accounts_notify_update ON users;
DROP FUNCTION accounts_notify();

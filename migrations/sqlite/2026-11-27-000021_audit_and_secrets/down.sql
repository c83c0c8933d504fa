DROP TABLE audit_events;
ALTER TABLE integrations DROP COLUMN secret_form;
ALTER TABLE integrations DROP COLUMN secret_hint;

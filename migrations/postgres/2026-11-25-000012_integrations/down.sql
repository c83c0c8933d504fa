DROP TABLE integrations;

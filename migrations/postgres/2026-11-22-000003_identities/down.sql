DROP TABLE user_identities;

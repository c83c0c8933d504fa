DROP TABLE invites;
DROP TABLE registration_policy;

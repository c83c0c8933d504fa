DROP TABLE member_quotas;
DROP TABLE quota_defaults;
DROP TABLE password_resets;

DROP TABLE shared_counters;

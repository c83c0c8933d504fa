DROP TRIGGER gifs_count_delete;
DROP TRIGGER gifs_count_insert;
DROP TABLE gif_count;

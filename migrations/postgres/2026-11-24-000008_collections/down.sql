DROP TABLE collection_gifs;
DROP TABLE collections;

DROP TABLE gif_tags;
DROP TABLE tags;
DROP TABLE gifs;
DROP TABLE users;

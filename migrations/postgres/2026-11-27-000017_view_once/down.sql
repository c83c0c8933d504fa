DROP TABLE gif_viewers;

DROP TRIGGER gif_words_postings_delete ON gif_words;
DROP TRIGGER gif_words_postings_update ON gif_words;
DROP TRIGGER gif_words_postings_insert ON gif_words;
DROP FUNCTION word_postings_changed();
DROP FUNCTION word_postings_refresh(TEXT[], BIGINT[]);
DROP FUNCTION word_postings_of(TEXT, INTEGER);
DROP FUNCTION word_postings_merge(BIGINT[], BIGINT[], BIGINT[]);
DROP FUNCTION word_postings_find(BIGINT[], BIGINT, INTEGER);
DROP TABLE word_postings;

import { describe, expect, it } from 'vitest';
import { addTagTo, availableTags, normalizeTag, suggestTags } from './tag-rules';

describe('tag editor rules', () => {
  it('trims and lower-cases', () => {
    expect(normalizeTag('  Funny Cats ')).toBe('funny cats');
  });

  it('adds normalised names and ignores blanks and duplicates', () => {
    expect(addTagTo([], ' Cats ')).toEqual(['cats']);
    expect(addTagTo(['cats'], 'CATS')).toEqual(['cats']);
    expect(addTagTo(['cats'], '   ')).toEqual(['cats']);
    expect(addTagTo(['cats'], 'Dogs')).toEqual(['cats', 'dogs']);
  });

  it('suggests by substring, without the exact match or chosen tags, at most 8', () => {
    const known = ['cat', 'cats', 'bobcat', 'dog', 'catalog', 'scatter', 'c1cat', 'c2cat', 'c3cat', 'c4cat', 'c5cat'];
    expect(suggestTags('', known, [])).toEqual([]);
    expect(suggestTags('dog', known, [])).toEqual([]);
    expect(suggestTags('DO', known, [])).toEqual(['dog']);
    const cat = suggestTags(' Cat ', known, ['cats']);
    expect(cat).not.toContain('cat');
    expect(cat).not.toContain('cats');
    expect(cat).toHaveLength(8);
    expect(cat[0]).toBe('bobcat');
  });

  it('offers at most 10 available tags, not already chosen, in server order', () => {
    const known = Array.from({ length: 14 }, (_, i) => `t${i}`);
    expect(availableTags(known, ['t0', 't3'])).toEqual(['t1', 't2', 't4', 't5', 't6', 't7', 't8', 't9', 't10', 't11']);
    expect(availableTags(['a'], ['a'])).toEqual([]);
  });
});

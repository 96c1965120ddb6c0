import { describe, expect, it } from 'vitest';
import { cachedFrequentWords, frequentWordsOf, lookupSegments, NO_FREQUENT_WORDS } from './search-words.js';

describe('lookupSegments', () => {
  const frequent = new Set(['fund', 'equity']);
  it('asks the index for the other words with the whitespace around them', () => {
    expect(lookupSegments('fund 123', frequent)).toEqual([' 123']);
    expect(lookupSegments('FUND 123', frequent)).toEqual([' 123']);
    expect(lookupSegments('Equity Fund 123 Bond', frequent)).toEqual([' 123 ', ' Bond']);
    expect(lookupSegments('fund   12345 x', frequent)).toEqual([' 12345 ']);
  });
  it('keeps the whole text when no word is frequent or no other word has three characters', () => {
    expect(lookupSegments('Atlas 123', frequent)).toBeNull();
    expect(lookupSegments('fund 12', frequent)).toBeNull();
    expect(lookupSegments('equity fund', frequent)).toBeNull();
    expect(lookupSegments('fund 123', new Set())).toBeNull();
  });
  it('gives parts that are each in the text', () => {
    for (const text of ['fund 123', 'x fund yyy  zzz', 'fund\t123 equity 7'])
      for (const part of lookupSegments(text, frequent) ?? []) expect(text).toContain(part);
  });
});

describe('lookupSegments with shorter words (SQLite: a word and its whitespace make a trigram)', () => {
  const frequent = new Set(['fund']);
  it('makes a part of a word of one or two characters too', () => {
    expect(lookupSegments('fund 12', frequent, 1)).toEqual([' 12']);
    expect(lookupSegments('fund 5', frequent, 1)).toEqual([' 5']);
    expect(lookupSegments('fund 12', frequent)).toBeNull();
  });
});

describe('frequentWordsOf', () => {
  const rows = Array.from({ length: 1000 }, (_, i) => ({
    name: `Fund ${i + 1} ${i % 3 ? 'Equity' : 'Bond'}`,
    client: i % 40 ? 'Orion Capital' : `Client ${i}`,
  }));
  it('names the words of more than 5% of the sampled rows, by column, in lower case', () => {
    const words = frequentWordsOf(rows);
    expect([...words.name].sort()).toEqual(['bond', 'equity', 'fund']);
    expect([...words.client].sort()).toEqual(['capital', 'orion']);
  });
  it('counts a word once a row', () => {
    const words = frequentWordsOf(Array.from({ length: 400 }, (_, i) => ({ name: i < 10 ? 'Alpha Alpha Alpha Alpha Alpha' : `Fund ${i}`, client: null })));
    expect(words.name.has('alpha')).toBe(false);
  });
  it('names none for a small sample', () => {
    expect(frequentWordsOf(rows.slice(0, 50))).toBe(NO_FREQUENT_WORDS);
  });
});

describe('cachedFrequentWords', () => {
  it('reads once per owner until the words are five minutes old, and again after a failed read', async () => {
    const owner = {};
    let reads = 0;
    const read = async () => {
      reads++;
      if (reads === 2) throw new Error('database gone');
      return NO_FREQUENT_WORDS;
    };
    await cachedFrequentWords(owner, read, 0);
    await cachedFrequentWords(owner, read, 60_000);
    expect(reads).toBe(1);
    await expect(cachedFrequentWords(owner, read, 5 * 60_000)).rejects.toThrow('database gone');
    await cachedFrequentWords(owner, read, 5 * 60_000 + 1);
    expect(reads).toBe(3);
  });
});

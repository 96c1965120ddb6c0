/**
 * Frequent words of the fund search (delivery spec section 2 "search"), shared by both databases'
 * search indexes: a trigram index (PostgreSQL's `pg_trgm`, SQLite's FTS5 trigram table) asked for a
 * text reads the list of every trigram of it, and the trigrams of a word in most fund names
 * (`Fund` in `fund 123`) list nearly every row. Leaving such words out of the lookup, and testing
 * the whole text on the rows it gives, finds the same funds for much less. Which words are
 * frequent comes from PostgreSQL's statistics (pg/frequent-words.ts) or a sample of the funds on
 * SQLite (services/funds/listing-search.ts).
 */

/** Words (lower case) found in many fund names or clients, by column; see `lookupSegments`. */
export interface FrequentWords {
  name: ReadonlySet<string>;
  client: ReadonlySet<string>;
}

/** No word known to be frequent: every column is looked up with the whole text. */
export const NO_FREQUENT_WORDS: FrequentWords = { name: new Set(), client: new Set() };

/** A word held by more than this share of the rows (0-1) is frequent. */
export const FREQUENT_SHARE = 0.05;

/** How long a context keeps the frequent words it read, in ms (they change slowly, with the data). */
export const FREQUENT_WORDS_TTL_MS = 5 * 60_000;

/**
 * The parts of a search text a trigram index is asked for, when some words of the text are in many
 * rows. A GIN trigram lookup reads the posting list of every trigram of its pattern: for
 * `fund 123` over 1,000,000 fund names that all hold "Fund", the lists of `fun`, `und` and `nd `
 * hold every row, and reading them is most of the query (~8 ms of ~9). Each word of
 * `minWordLength` characters or more that is not frequent becomes a part: the word with the
 * whitespace that touches it in the text (` 123`, which keeps the index's word-start trigrams),
 * always a substring of the text, so a row containing the text contains every part and the parts
 * only narrow the rows the exact test then reads.
 * @param text the search text (trimmed)
 * @param frequent lower-case words of many rows of the column
 * @param minWordLength shortest word made a part (3: PostgreSQL's trigrams of a shorter word are
 *   its padded word-start ones, which a `%...%` pattern does not give the index)
 * @returns the parts, or null when the whole text is the better lookup (no frequent word in it, or
 *   no other word long enough)
 */
export function lookupSegments(text: string, frequent: ReadonlySet<string>, minWordLength = 3): string[] | null {
  const words = [...text.matchAll(/\S+/g)];
  if (!words.some((w) => frequent.has(w[0].toLowerCase()))) return null;
  const parts = words
    .filter((w) => [...w[0]].length >= minWordLength && !frequent.has(w[0].toLowerCase()))
    .map((w) => text.slice(Math.max(0, w.index - 1), Math.min(text.length, w.index + w[0].length + 1)));
  return parts.length ? parts : null;
}

const cached = new WeakMap<object, { at: number; words: Promise<FrequentWords> }>();

/**
 * The frequent words of an `owner` (a context), read by `read` and kept for
 * `FREQUENT_WORDS_TTL_MS`; a failed read is not kept.
 */
export function cachedFrequentWords(owner: object, read: () => Promise<FrequentWords>, now = Date.now()): Promise<FrequentWords> {
  const hit = cached.get(owner);
  if (hit && now - hit.at < FREQUENT_WORDS_TTL_MS) return hit.words;
  const words = read();
  cached.set(owner, { at: now, words });
  words.catch(() => cached.delete(owner));
  return words;
}

/**
 * The frequent words of sampled rows: each lower-case word (`\S+`) of a column held by more than
 * `FREQUENT_SHARE` of the rows. Fewer than `minRows` rows give none (a small table is cheap to
 * search whole, and a few rows say little of which words are common).
 */
export function frequentWordsOf(rows: ReadonlyArray<{ name: string | null; client: string | null }>, minRows = 200): FrequentWords {
  if (rows.length < minRows) return NO_FREQUENT_WORDS;
  const count = (column: 'name' | 'client') => {
    const n = new Map<string, number>();
    for (const row of rows) for (const w of new Set((row[column] ?? '').toLowerCase().match(/\S+/g) ?? [])) n.set(w, (n.get(w) ?? 0) + 1);
    return new Set([...n].filter(([, k]) => k / rows.length > FREQUENT_SHARE).map(([w]) => w));
  };
  return { name: count('name'), client: count('client') };
}

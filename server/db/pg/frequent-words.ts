/**
 * The words of many fund names and clients, read from PostgreSQL's own statistics: migration 0005
 * creates expression statistics on `to_tsvector('simple', name)` and `... client` (PostgreSQL 14 or
 * newer), and every ANALYZE, autovacuum's included, keeps their most common words with the share
 * of rows holding each (`pg_stats_ext_exprs.most_common_elems`). The search leaves such words out
 * of its trigram lookups (search-words.ts `lookupSegments`).
 */
import { sql } from 'drizzle-orm';
import { cachedFrequentWords, FREQUENT_SHARE, NO_FREQUENT_WORDS, type FrequentWords } from '../search-words.js';

/** The two statistics objects of migration 0005, by column. */
export const WORD_STATISTICS = { name: 'fund_requests_name_words', client: 'fund_requests_client_words' } as const;

interface Execute {
  execute(query: ReturnType<typeof sql>): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * The frequent words of fund names and clients, cached per `owner` (a context) for
 * `FREQUENT_WORDS_TTL_MS` (search-words.ts; statistics change only on ANALYZE). No statistics yet (a table never analyzed, PostgreSQL 13) gives no
 * frequent words: every lookup then uses the whole text, as before the statistics existed.
 * @param db a PostgreSQL drizzle database
 */
export function frequentSearchWords(owner: object, db: Execute, now = Date.now()): Promise<FrequentWords> {
  return cachedFrequentWords(owner, () => readFrequentWords(db), now);
}

async function readFrequentWords(db: Execute): Promise<FrequentWords> {
  // most_common_elems is anyarray: through text to text[]; its freqs have 3 values more (min, max, nulls)
  const { rows } = await db.execute(sql`
    select statistics_name as name, most_common_elems::text::text[] as words, most_common_elem_freqs as shares
    from pg_stats_ext_exprs
    where statistics_name in (${WORD_STATISTICS.name}, ${WORD_STATISTICS.client}) and most_common_elems is not null`);
  const out = { name: new Set<string>(), client: new Set<string>() };
  for (const row of rows as Array<{ name: string; words: string[]; shares: number[] }>) {
    const set = row.name === WORD_STATISTICS.name ? out.name : out.client;
    row.words.forEach((w, i) => {
      if (Number(row.shares[i]) > FREQUENT_SHARE) set.add(w);
    });
  }
  return out.name.size || out.client.size ? out : NO_FREQUENT_WORDS;
}

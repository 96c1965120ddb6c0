/**
 * The listing's global search (delivery spec section 2 "search"): funds whose name, client or any
 * fund code contains the text, case-insensitively.
 *
 * The exact test is LIKE on those columns (ASCII case folded, as SQLite's LIKE does). Before it,
 * the trigram index `fund_search` (migration 0005, kept up to date by triggers on fund_requests
 * and fund_codes) names the candidate funds: a substring of three characters or more can only be
 * in a row holding all its trigrams, so the candidates are a superset of the matches (the index
 * folds case for every alphabet, LIKE only for ASCII). When a text has few candidates the query
 * starts from them (well under a millisecond for a few hundred; ~10 ms for 10,000, against ~35 ms
 * for LIKE over every row). With other filters and many candidates (a client's name, a word in
 * most fund names) the filters' indexes are the better start, and the search stays a LIKE on the
 * rows they leave. Words of many funds are left out of the index lookup (`ftsQuery`, as on
 * PostgreSQL). Candidate lists are cached with the listing pages (listing-cache.ts).
 *
 * On PostgreSQL the same search is `ILIKE` answered by `pg_trgm` indexes (server/db/pg/fund-search.ts),
 * leaving the words of many rows out of the index lookups (frequent-words.ts);
 * `searchCondition` gives the form of the database in use.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { fundSearchCondition } from '../../db/pg/fund-search.js';
import { frequentSearchWords } from '../../db/pg/frequent-words.js';
import { cachedFrequentWords, frequentWordsOf, lookupSegments, type FrequentWords } from '../../db/search-words.js';
import { cachedListing } from '../cache/listing-cache.js';
import { containsText } from '../query/query-filters.js';

/**
 * Most candidates the query starts from: with other filters (which give SQLite a narrower start of
 * their own) and without. A text with more is searched with LIKE alone.
 */
export const MAX_CANDIDATES = { withFilters: 2000, alone: 20_000 } as const;

/** How many fund rows `sampledFrequentWords` draws (at random, by id) to tell which words are frequent. */
export const FREQUENT_WORDS_SAMPLE = 2000;

/**
 * The frequent words of fund names and clients on SQLite, from a sample of `FREQUENT_WORDS_SAMPLE`
 * funds drawn at random by id (a few milliseconds), kept per context for five minutes
 * (search-words.ts). SQLite has no statistics on words as PostgreSQL has (migration 0005 there).
 */
export function sampledFrequentWords(ctx: AppContext): Promise<FrequentWords> {
  return cachedFrequentWords(ctx, async () => {
    const rows = (await storeOf(ctx).db.all(
      sql`WITH RECURSIVE draw(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM draw WHERE n < ${FREQUENT_WORDS_SAMPLE})
          SELECT name, client FROM fund_requests
          WHERE id IN (SELECT abs(random()) % (SELECT max(id) FROM fund_requests) + 1 FROM draw)`,
    )) as Array<{ name: string | null; client: string | null }>;
    return frequentWordsOf(rows);
  });
}

/**
 * The FTS5 query of a search text: the text as one phrase (the trigram tokenizer matches a phrase
 * as a substring of a column), or, when some of its words are in many funds, the phrases of its
 * other words with the whitespace around them (`lookupSegments`: ` 123` for `fund 123`), each
 * three characters or more, which a row holding the text holds too. The trigrams of a frequent
 * word list nearly every fund, and reading them was most of a search's cost: over 100,000 funds,
 * `fund 12` 1.7 ms against 0.5 ms for ` 12`.
 * @param frequent the frequent words of names and clients (the index holds both, and codes)
 */
export function ftsQuery(text: string, frequent: FrequentWords): string {
  const words = new Set([...frequent.name, ...frequent.client]);
  const parts = (lookupSegments(text, words, 1) ?? []).filter((p) => [...p].length >= 3);
  return (parts.length ? parts : [text]).map((p) => `"${p.replace(/"/g, '""')}"`).join(' ');
}

/**
 * The ids of the funds whose name, client or codes may contain `text`, as a JSON array in id
 * order (at most `max`), or null when the index cannot narrow it to that many: text under three
 * characters, or more candidates. SQLite only (its FTS5 index).
 */
export async function searchCandidates(ctx: AppContext, text: string, max: number): Promise<string | null> {
  if ([...text].length < 3) return null;
  return cachedListing(ctx, JSON.stringify(['search-candidates', text, max]), async () => {
    const query = ftsQuery(text, await sampledFrequentWords(ctx));
    const rows = (await storeOf(ctx).db.all(
      sql`SELECT rowid AS id FROM fund_search WHERE fund_search MATCH ${query} ORDER BY rowid LIMIT ${max + 1}`,
    )) as Array<{
      id: number;
    }>;
    return rows.length > max ? null : JSON.stringify(rows.map((r) => r.id));
  });
}

/**
 * The search condition on fund rows: name, client or any fund code contains the text (any
 * case). On PostgreSQL, the trigram-indexed ILIKE form. On SQLite, with index candidates, the rows
 * are those candidates that pass the LIKE test; without, alone the matching ids are listed once (a
 * narrow index scan), and with other filters, which let SQLite start from an index, the text is
 * tested on the rows they leave.
 * @returns undefined for an empty (or blank) text
 */
export async function searchCondition(ctx: AppContext, search: string | null | undefined, withFilters = false): Promise<SQL | undefined> {
  const text = search?.trim();
  if (!text) return undefined;
  const { db, dialect, tables: t } = storeOf(ctx);
  if (dialect === 'postgres') return fundSearchCondition(text, await frequentSearchWords(ctx, db as unknown as Parameters<typeof frequentSearchWords>[1]));
  const { fundCodes, fundRequests: fr } = t;
  const ownCodes = sql`exists (select 1 from ${fundCodes} where ${fundCodes.fundRequestId} = ${fr.id} and ${containsText(fundCodes.code, text)})`;
  const exact = or(containsText(fr.name, text), containsText(fr.client, text), ownCodes);
  const candidates = await searchCandidates(ctx, text, withFilters ? MAX_CANDIDATES.withFilters : MAX_CANDIDATES.alone);
  if (candidates) return sql`${fr.id} in (select value from json_each(${candidates})) and ${exact}`;
  if (withFilters) return exact;
  const inCodes = sql`select ${fundCodes.fundRequestId} from ${fundCodes} where ${containsText(fundCodes.code, text)}`;
  return sql`${fr.id} in (select ${fr.id} from ${fr} where ${or(containsText(fr.name, text), containsText(fr.client, text))} union all ${inCodes})`;
}

/**
 * The listing's global search on PostgreSQL (delivery spec section 2 "search"): funds whose name,
 * client or any fund code contains the text. The SQLite form is an FTS5 trigram index with a LIKE
 * check (`server/services/funds/listing-search.ts`); here `ILIKE` does both, answered by the GIN
 * trigram indexes of migration 0001 (`pg_trgm`) for texts of three characters or more, and with a
 * status filter by the GIN index of status, name and client of migration 0006 (`btree_gin`), which
 * the planner takes where the text is in many rows: one lookup for both, instead of ANDing the
 * text's matches with a bitmap of every fund of that status.
 *
 * A text pg_trgm takes no trigram from (`hasTrigrams`: `5`, `eq`, `-`) is not asked of these
 * indexes at all: GIN answers a pattern without trigrams by reading every entry of the index (the
 * trigrams of every name, client and code: 0.4-1.2 s over 1,000,000 funds), and the ids of the
 * funds whose codes match, taken as an array, were compared one by one with every row read (a
 * one-character text that most codes hold: 609,348 codes, 34 s). Such texts are tested on the rows
 * the listing reads anyway, in its sort's order, and stop with the page and the capped count
 * (listing-page.ts); the codes are one hashed set.
 */
import { and, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { fundCodes, fundRequests as fr } from '../schema-pg/index.js';
import { lookupSegments, NO_FREQUENT_WORDS, type FrequentWords } from '../search-words.js';

/** `%text%` with LIKE's wildcards and its escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Whether pg_trgm takes trigrams from the pattern `%text%`: a word (a run of letters or digits) of
 * three characters or more, or a shorter one padded to three by the text around it (a character
 * before a word gives it two padding spaces, one after it one; the ends of the pattern give none).
 */
export function hasTrigrams(text: string): boolean {
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const before = m.index > 0 ? 2 : 0;
    const after = m.index + m[0].length < text.length ? 1 : 0;
    if ([...m[0]].length + before + after >= 3) return true;
  }
  return false;
}

/** `column` contains `text` (any case) tested on the row alone: never an index condition. */
const rowContains = (column: SQLWrapper, text: string): SQL => sql`strpos(lower(${column}), lower(${text})) > 0`;

/** `column` contains `text` (any case): ILIKE, asking the column's trigram index only for the parts of the text that are not frequent words. */
function columnContains(column: SQLWrapper, text: string, frequent: ReadonlySet<string>): SQL {
  const parts = lookupSegments(text, frequent);
  if (!parts) return sql`${column} ilike ${containsPattern(text)}`;
  // the exact test as strpos over lower(): what ILIKE does with the whole pattern, but not an
  // index condition, so the index is asked for the parts alone
  return sql`(${and(...parts.map((p) => sql`${column} ilike ${containsPattern(p)}`))} and ${rowContains(column, text)})`;
}

/**
 * The search condition on `fund_requests` rows: name, client or one of the fund's codes contains
 * the text (letters in any case). Written as one OR of three conditions on the row that an index
 * answers each (the name and client trigram indexes, and the primary key for the ids of the funds
 * whose codes match, read first from the codes' trigram index): the planner ORs their bitmaps,
 * and ANDs them with the bitmaps of the listing's other filters, so a search that matches many
 * funds visits only the rows that pass the filters too. The form before (the row's id in the union
 * of two lookups) had to build the whole set of matching ids and join it with the filtered rows:
 * over 1,000,000 funds, 283 ms instead of 80 ms for a text in 111,000 fund names with a status and
 * a date filter, 544 ms instead of 191 ms for a client name alone. Words of the text that are in
 * many names or clients (`frequent`, from `frequentSearchWords`) are left out of the index lookups
 * (`lookupSegments`). A text without trigrams is tested on each row read (`hasTrigrams`).
 * @returns undefined for an empty (or blank) text
 */
export function fundSearchCondition(search: string | null | undefined, frequent: FrequentWords = NO_FREQUENT_WORDS): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  if (!hasTrigrams(text))
    return sql`(${rowContains(fr.name, text)} or ${rowContains(fr.client, text)} or ${fr.id} in (select ${fundCodes.fundRequestId} from ${fundCodes} where ${rowContains(fundCodes.code, text)}))`;
  const p = containsPattern(text);
  return sql`(${columnContains(fr.name, text, frequent.name)} or ${columnContains(fr.client, text, frequent.client)} or ${fr.id} = any(array(select ${fundCodes.fundRequestId} from ${fundCodes} where ${fundCodes.code} ilike ${p})))`;
}

/**
 * The listing's global search on PostgreSQL (delivery spec section 2 "search"): funds whose name,
 * client or any fund code contains the text. The SQLite form is an FTS5 trigram index with a LIKE
 * check (`server/services/funds/listing-search.ts`); here `ILIKE` does both, answered by the GIN
 * trigram indexes of migration 0001 (`pg_trgm`) for texts of three characters or more.
 */
import { sql, type SQL } from 'drizzle-orm';
import { fundCodes, fundRequests as fr } from '../schema-pg/index.js';

/** `%text%` with LIKE's wildcards and its escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The search condition on `fund_requests` rows: name, client or one of the fund's codes contains
 * the text (letters in any case). Written as the ids of two index lookups (name or client, and
 * codes), so each side reads its trigram indexes instead of testing every row.
 * @returns undefined for an empty (or blank) text
 */
export function fundSearchCondition(search: string | null | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const p = containsPattern(text);
  return sql`${fr.id} in (select ${fr.id} from ${fr} where ${fr.name} ilike ${p} or ${fr.client} ilike ${p} union select ${fundCodes.fundRequestId} from ${fundCodes} where ${fundCodes.code} ilike ${p})`;
}

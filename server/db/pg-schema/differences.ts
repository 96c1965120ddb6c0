/**
 * What the PostgreSQL schema says differently from the SQLite description (`server/db/schema`),
 * beyond the type mapping every column gets (`server/db/pg-schema/generate.ts`: integer ids as
 * identities that still take explicit ids, 0/1 booleans as `boolean`, JSON text as `jsonb`, `real`
 * as `double precision`). The generator reads nothing else, so a difference not listed here does
 * not exist. Indexes that drizzle cannot describe (trigram GIN, statistics) and triggers are SQL
 * migrations written by hand in `server/db/migrations-pg/`.
 */

/**
 * Integer columns that PostgreSQL stores as `bigint` (read and written as JS numbers), as
 * `<table>.<column>`: epoch milliseconds and byte sizes, which outgrow PostgreSQL's 32-bit
 * `integer` (SQLite's integers are 64-bit already).
 */
export const PG_BIGINT_COLUMNS: ReadonlySet<string> = new Set([
  // epoch ms
  'chase_mails.next_attempt_at',
  'nodes.heartbeat_at',
  'node_events.created_at',
  'processes.lease_expires_at',
  // bytes: files over 2 GiB
  'import_files.size',
  'pbi_input_files.size',
]);

/**
 * SQL defaults of the SQLite description and the name of their PostgreSQL equivalent exported by
 * `server/db/schema-pg/common.ts`, keyed by the SQLite SQL text.
 */
export const PG_SQL_DEFAULTS: Readonly<Record<string, string>> = {
  // now as ISO-8601 UTC text with milliseconds
  "(strftime('%Y-%m-%dT%H:%M:%fZ','now'))": 'isoNow',
};

/**
 * Indexes whose nullable columns PostgreSQL sorts with NULL first, as SQLite does: the fund listing
 * orders empty values first ascending and last descending on both databases
 * (`server/services/funds/listing-page.ts`), and a PostgreSQL index serves that order (forwards
 * or backwards) only when it is built in it; with PostgreSQL's own order (NULL last ascending) a
 * page of the listing sorted on these columns was a scan and sort of every fund.
 */
export const PG_NULLS_FIRST_INDEXES: ReadonlySet<string> = new Set([
  'fund_requests_due_idx',
  'fund_requests_request_date_idx',
  'fund_requests_status_request_idx',
  'fund_requests_status_due_idx',
]);

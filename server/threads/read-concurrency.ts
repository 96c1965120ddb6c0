/** How many tasks a read pool thread runs at once (pools.ts) and the connections it opens for them (pool-entry.ts). */

/**
 * Pages a read thread answers at once on PostgreSQL, with a connection of its own each: a page
 * there is mostly waiting for the database (a dozen round trips), so one page a thread at a time
 * would cap a node at a few pages in flight whatever the cores. On SQLite a read thread answers one
 * page at a time (its queries run synchronously on the thread).
 */
export const PG_PAGES_PER_READ_THREAD = 4;

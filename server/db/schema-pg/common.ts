/**
 * What the generated PostgreSQL schema modules (the other files of this folder, written by
 * `server/db/pg-schema/generate.ts`) use beside pg-core: the PostgreSQL form of the SQLite
 * description's SQL defaults (`server/db/pg-schema/differences.ts` names them) and the type that
 * gives each column the TypeScript type of its SQLite twin. Written by hand.
 */
import { sql } from 'drizzle-orm';

/** Now as ISO-8601 UTC text with milliseconds, the format SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ')` writes. */
export const isoNow = sql`(to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** The TypeScript type of a column's values (without null): `Data<typeof fundRequests.status>` is `FundStatus`. */
export type Data<C> = C extends { _: { data: infer D } } ? D : never;

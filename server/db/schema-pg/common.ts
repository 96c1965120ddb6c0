/**
 * Column helpers of the PostgreSQL schema, giving each column the same name and TypeScript type as
 * its SQLite twin (`server/db/schema/common.ts`): ISO timestamps as text, booleans, JSON as jsonb.
 */
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, text } from 'drizzle-orm/pg-core';

/** Primary key: an identity that still takes explicit ids (an install moved from SQLite keeps them). */
export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();

/** Now as ISO-8601 UTC text with milliseconds, the format SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ')` writes. */
export const isoNow = sql`(to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** ISO-8601 UTC timestamp text column defaulting to now. */
export const createdAt = () => text('created_at').notNull().default(isoNow);
export const updatedAt = () => text('updated_at').notNull().default(isoNow);

/** Boolean column (SQLite stores 0/1; both read as boolean). */
export const bool = (name: string) => boolean(name);

/** JSON column. */
export const json = <T>(name: string) => jsonb(name).$type<T>();

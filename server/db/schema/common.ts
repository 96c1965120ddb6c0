/** Column helpers shared by the schema files: ISO timestamps as text, JSON as text. */
import { integer, text } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';

/** Primary key: integer rowid alias. */
export const id = () => integer('id').primaryKey({ autoIncrement: true });

/** ISO-8601 UTC timestamp text column defaulting to now. */
export const createdAt = () => text('created_at').notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);
export const updatedAt = () => text('updated_at').notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

/** Boolean stored as 0/1. */
export const bool = (name: string) => integer(name, { mode: 'boolean' });

/** JSON stored as text. */
export const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();

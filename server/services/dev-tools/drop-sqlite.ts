/**
 * The SQLite part of the developer tools' "drop tables" (`database.ts`): drops every table of a
 * data directory's database, virtual tables first, and applies the migrations again. SQLite only:
 * on PostgreSQL the action is refused before this is reached.
 */
import type Database from 'better-sqlite3';
import { applyMigrations } from '../../db/client.js';

/**
 * Drops every table (foreign keys off meanwhile) in one immediate transaction, then migrates the
 * empty database.
 * @returns the tables dropped and the schema version after the migrations
 */
export function dropAndRebuildSqlite(sqlite: Database.Database): { dropped: string[]; schemaVersion: number } {
  const list = () =>
    sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{
      name: string;
      sql: string | null;
    }>;
  const dropped: string[] = [];
  sqlite.pragma('foreign_keys = OFF');
  try {
    sqlite
      .transaction(() => {
        // virtual tables first: dropping one drops its shadow tables
        for (const t of list().filter((x) => /^CREATE VIRTUAL TABLE/i.test(x.sql ?? ''))) {
          sqlite.exec(`DROP TABLE "${t.name}"`);
          dropped.push(t.name);
        }
        for (const t of list()) {
          sqlite.exec(`DROP TABLE "${t.name}"`);
          dropped.push(t.name);
        }
      })
      .immediate();
  } finally {
    sqlite.pragma('foreign_keys = ON');
  }
  return { dropped, schemaVersion: applyMigrations(sqlite).schemaVersion };
}

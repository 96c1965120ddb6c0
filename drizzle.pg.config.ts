import { defineConfig } from 'drizzle-kit';

/** Migrations of the PostgreSQL schema (`server/db/schema-pg`), beside the SQLite ones (drizzle.config.ts). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema-pg/index.ts',
  out: './server/db/migrations-pg',
});

/**
 * Writes `server/db/schema-pg/*.ts` from the SQLite description `server/db/schema/*.ts`
 * (server/db/pg-schema/generate.ts); `npm run db:generate` runs it before drizzle-kit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pgSchemaFiles, repoRoot } from '../server/db/pg-schema/generate.js';

for (const file of await pgSchemaFiles()) {
  writeFileSync(join(repoRoot, file.path), file.source);
  console.log(`wrote ${file.path}`);
}

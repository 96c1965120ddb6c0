/**
 * Upgrading a database from before mapping versions were kept: every existing mapping gets its
 * content as version 1 (with its reason when it had one), so its history starts where it stands.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../paths.js';

describe('mapping versions migration', () => {
  it('records the content of every existing mapping as its version 1', () => {
    const db = new Database(':memory:');
    const dir = migrationsDir();
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith('.sql'))
      .sort()) {
      if (f.startsWith('0008_')) {
        db.exec("insert into administrators (code, name) values ('acme', 'Acme')");
        db.exec(`insert into mappings (administrator_id, type, kind, description, rows, sha256, rationale) values
          (1, 'account_mapping', 'custom', 'acme_accounts', '[{"source_code":"X","target_code":"CASH_AT_BANK"}]', 'aaa', 'client chart'),
          (1, 'file_layout', 'master', 'acme_file_layout', '[]', 'bbb', null)`);
      }
      for (const stmt of readFileSync(join(dir, f), 'utf8').split('--> statement-breakpoint')) if (stmt.trim()) db.exec(stmt);
    }
    expect(db.prepare('select mapping_id, version, sha256, reason, rows from mapping_versions order by mapping_id').all()).toEqual([
      { mapping_id: 1, version: 1, sha256: 'aaa', reason: 'client chart', rows: '[{"source_code":"X","target_code":"CASH_AT_BANK"}]' },
      { mapping_id: 2, version: 1, sha256: 'bbb', reason: 'content before versions were kept', rows: '[]' },
    ]);
    expect(db.prepare('select id, version from mappings order by id').all()).toEqual([
      { id: 1, version: 1 },
      { id: 2, version: 1 },
    ]);
    db.close();
  });
});

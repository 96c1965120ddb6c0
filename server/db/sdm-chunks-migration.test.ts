/**
 * Upgrading a database whose standardized rows were stored one JSON object a row (`sdm_rows`):
 * the rows move to `sdm_chunks` and read back with the same values, in line order, per file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../paths.js';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { Db } from './client.js';
import { countSdmRows, readSdmChunks } from './sdm-store.js';

const GS = {
  file: 'MFS_HOLDINGS_S000013795_20230331.csv',
  line: 5,
  fund_code: 'S000013795',
  as_of: '2023-03-31',
  security_id: 'US3138W7WP51',
  id_type: 'ISIN',
  security_name: 'Fannie Mae Pool',
  instrument_type: 'ABS-MBS',
  standard_instrument: 'DEBT',
  quantity: 13415.85,
  price: 92.929855,
  price_currency: 'USD',
  fx_rate: 1,
  market_value_local: 12467.33,
  market_value_base: 12467.33,
  cost_base: null,
  accrued_income_base: null,
  country: 'US',
};

describe('SDM rows in chunks migration', () => {
  it('moves rows stored one a row into chunks that read back the same', async () => {
    const db = new Database(':memory:');
    const dir = migrationsDir();
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith('.sql'))
      .sort()) {
      if (f.startsWith('0011_')) {
        db.pragma('foreign_keys = OFF'); // a standardization file without its fund request and input: enough for the rows
        db.exec(
          "insert into fund_files (id, fund_request_id, kind, file_type, file_name, status) values (7, 1, 'standardization', 'holdings', 'holdings.csv', 'done')",
        );
        const ins = db.prepare("insert into sdm_rows (fund_file_id, sdm_type, line, data) values (7, 'holdings', ?, ?)");
        // stored out of line order, as a row could be: they read back by line
        ins.run(6, JSON.stringify({ ...GS, line: 6, security_id: 'US38141W2734', security_name: 'Goldman Sachs Group Inc/The', quantity: 1.5 }));
        ins.run(5, JSON.stringify(GS));
      }
      for (const stmt of readFileSync(join(dir, f), 'utf8').split('--> statement-breakpoint')) if (stmt.trim()) db.exec(stmt);
    }
    expect(db.prepare("select count(*) n from sqlite_master where name = 'sdm_rows'").get()).toEqual({ n: 0 });
    const ctx = { db: drizzle(db) as unknown as Db };
    expect(await countSdmRows(ctx, [7])).toBe(2);
    const rows = [];
    for await (const chunk of readSdmChunks(ctx, [7], 'holdings')) rows.push(...chunk);
    expect(rows).toEqual([GS, { ...GS, line: 6, security_id: 'US38141W2734', security_name: 'Goldman Sachs Group Inc/The', quantity: 1.5 }]);
    db.close();
  });
});

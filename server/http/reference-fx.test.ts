/** The developer tools' view of the independent FX rates: which dates the loaded rates cover. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../runtime.js';
import { importEcbFxFile } from '../services/reference-data/fx-rates.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, devToolsEnabled: true });
});
afterAll(() => ctx.dispose());

describe('GET /dev-tools/fx-rates', () => {
  it('lists each loaded rate file with the first and last date it covers', async () => {
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    expect((await api.get('dev-tools/fx-rates', token)).body.payload).toEqual([]);
    seedFxRates(ctx);
    importEcbFxFile(ctx, join(fixturesDir(), 'ecb', 'eurofxref-hist_2022-12_2024-02.csv'));
    const res = await api.get('dev-tools/fx-rates', token);
    expect(res.status).toBe(200);
    expect(res.body.payload.map((f: any) => [f.file, f.format, f.firstDate, f.lastDate, f.dates])).toEqual([
      ['ecb-usd-cross-rates-2022-12-30.csv', 'cross rates', '2022-12-30', '2022-12-30', 1],
      ['ecb-usd-cross-rates-2023-03-31.csv', 'cross rates', '2023-03-31', '2023-03-31', 1],
      ['eurofxref-hist_2022-12_2024-02.csv', 'ECB eurofxref-hist', '2022-12-01', '2024-02-29', 319],
    ]);
    expect((await api.get('dev-tools/fx-rates', null)).status).toBe(401);
  });
});

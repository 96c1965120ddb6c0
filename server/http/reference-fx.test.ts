/**
 * The independent FX rates over HTTP: the overview with the shipped ECB history's last date and the
 * rules applied, an upload in the Fed H.10 layout (multipart), a refused file naming its line, the
 * removal of an uploaded file, who may call them, and the developer tools' list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../paths.js';
import { seedFxRates } from '../services/reference-data/fx-rates.js';
import { addUser } from '../services/users/users.js';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, devToolsEnabled: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

const upload = (name: string, bytes: Uint8Array, as = token) => {
  const form = new FormData();
  form.append('upload', new Blob([new Uint8Array(bytes)]), name);
  return api.call('POST', 'reference/fx-rates', { token: as, body: form });
};

describe('/reference/fx-rates', () => {
  it('lists the shipped ECB history with its last date, the age limit and the default tolerance', async () => {
    expect((await api.get('reference/fx-rates', token)).body.payload.files).toEqual([]);
    seedFxRates(ctx);
    const o = (await api.get('reference/fx-rates', token)).body.payload;
    expect(o.shipped).toEqual({ file: 'eurofxref-hist_2020-onwards.csv', firstDate: '2020-01-02', lastDate: '2026-04-13' });
    expect(o.files.map((f: any) => [f.file, f.format, f.shipped, f.lastDate])).toEqual([
      ['eurofxref-hist_2020-onwards.csv', 'ECB eurofxref-hist', true, '2026-04-13'],
    ]);
    expect(o).toMatchObject({ maxAgeBusinessDays: 5, defaultTolerancePct: 0.5 });
    expect(o.layouts.join(' ')).toContain('rate_date,currency,units_per_XXX');
  });

  it('takes an upload in the Fed H.10 layout, refuses a bad file naming its line, and removes an upload', async () => {
    const fed = readFileSync(join(fixturesDir(), 'fx-sources', 'fed_h10_fx_monthly.csv'));
    const res = await upload('fed_h10_fx_monthly.csv', fed);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload).toMatchObject({ file: 'fed_h10_fx_monthly.csv', format: 'Fed H.10', shipped: false, lastDate: '2026-06-01' });
    const bad = await upload('fx.csv', new TextEncoder().encode('rate_date,currency,units_per_chf\n2026-02-27,GBP,0,86\n'));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^fx\.csv line 2: bad rate "0"/);
    expect((await api.get('reference/fx-rates', token)).body.payload.files.map((f: any) => f.file)).toEqual([
      'fed_h10_fx_monthly.csv',
      'eurofxref-hist_2020-onwards.csv',
    ]);
    const removed = await api.call('DELETE', 'reference/fx-rates/fed_h10_fx_monthly.csv', { token });
    expect(removed.body.payload).toEqual({ file: 'fed_h10_fx_monthly.csv', removed: true });
    expect((await api.call('DELETE', 'reference/fx-rates/eurofxref-hist_2020-onwards.csv', { token })).status).toBe(400);
    expect((await api.call('DELETE', 'reference/fx-rates/none.csv', { token })).status).toBe(404);
  });

  it('is read by the auditor and delivery roles and loaded by auditors only, never by a client or without sign-in', async () => {
    const client = await addUser(ctx, { email: 'client@example.com', name: 'Cleo Client', role: 'Client' });
    const auditor = await addUser(ctx, { email: 'auditor@example.com', name: 'Ada Auditor', role: 'Auditor' });
    const delivery = await addUser(ctx, { email: 'dan.delivery@example.com', name: 'Dan Delivery', role: 'DeliveryTeamMember' });
    expect((await api.get('reference/fx-rates', await sessionToken(ctx, client.id))).status).toBe(403);
    expect((await api.get('reference/fx-rates', null)).status).toBe(401);
    expect((await api.get('reference/fx-rates', await sessionToken(ctx, auditor.id))).status).toBe(200);
    const deliveryToken = await sessionToken(ctx, delivery.id);
    expect((await api.get('reference/fx-rates', deliveryToken)).status).toBe(200);
    const rates = new TextEncoder().encode('rate_date,currency,units_per_usd,source\n2023-03-31,TWD,30.4345,WM/Reuters 4pm London\n');
    // independent rates are audit evidence: a delivery team member cannot load or remove them
    expect((await upload('wm-2023-03-31.csv', rates, deliveryToken)).status).toBe(403);
    const loaded = await upload('wm-2023-03-31.csv', rates, await sessionToken(ctx, auditor.id));
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
    expect((await api.call('DELETE', 'reference/fx-rates/wm-2023-03-31.csv', { token: deliveryToken })).status).toBe(403);
    expect((await api.call('DELETE', 'reference/fx-rates/wm-2023-03-31.csv', { token: await sessionToken(ctx, auditor.id) })).status).toBe(200);
  });

  it('keeps the developer tools list of the rate files', async () => {
    const res = await api.get('dev-tools/fx-rates', token);
    expect(res.body.payload.map((f: any) => [f.file, f.format, f.firstDate, f.lastDate, f.dates])).toEqual([
      ['eurofxref-hist_2020-onwards.csv', 'ECB eurofxref-hist', '2020-01-02', '2026-04-13', 1608],
    ]);
  });
});

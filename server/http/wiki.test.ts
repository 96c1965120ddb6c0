import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
afterEach(() => ctx?.dispose());

describe('wiki', () => {
  it('serves the default sections and the operator-edited file, naming a broken one', async () => {
    ctx = await createTestContext();
    const api = apiClient(ctx);
    const token = await sessionToken(ctx, ctx.boot.admin.id);
    const first = await api.get('wiki-data', token);
    expect(first.body.payload.sections.map((s: any) => s.title)).toEqual(['Getting started', 'Data delivery']);
    writeFileSync(
      join(ctx.dir, 'wiki.json'),
      JSON.stringify({ sections: [{ title: 'Team', items: [{ type: 'mail', title: 'Audit desk', email: 'desk@example.com' }] }] }),
    );
    expect((await api.get('wiki-data', token)).body.payload).toEqual({
      sections: [{ title: 'Team', items: [{ type: 'mail', title: 'Audit desk', email: 'desk@example.com' }] }],
      dataSandbox: [],
      sampleOutputs: [],
    });
    writeFileSync(join(ctx.dir, 'wiki.json'), '{"sections": [{"items": []}]}');
    const bad = await api.get('wiki-data', token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^sections\.0\.title: /);
  });
});

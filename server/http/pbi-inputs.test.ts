/** PowerBI inputs over HTTP: types, multipart save, the list and the file read back with its own token. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;
const TEAM = 'engagement_code,email,role\nE-100,ada@example.com,Manager\n';

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, pbiInputs: true, publicUrl: 'https://audit.example.com' });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

const saveForm = (fields: Record<string, string>, file?: { name: string; text: string }) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('upload', new Blob([file.text]), file.name);
  return api.call('POST', 'pbi-inputs/save', { token, body: form });
};

describe('PowerBI inputs over HTTP', () => {
  it('saves a csv with its type, lists it newest first and serves it to its token without a session', async () => {
    const types = await api.get('pbi-inputs/types', token);
    expect(types.body.payload.map((t: any) => t.name)).toEqual(['Engagement list', 'Fund mapping', 'Audit team', 'Budget and hours']);

    const res = await saveForm({ pbiInputsTypes: 'audit_team' }, { name: 'team.csv', text: TEAM });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('team.csv uploaded');
    const saved = res.body.payload;
    expect(saved.url).toBe(`https://audit.example.com/api/v2.0/pbi-inputs/file/${saved.id}?token=${saved.token}`);

    const list = await api.post('pbi-inputs/list', {}, token);
    expect(list.body.payload.pagination).toEqual({ offset: 0, limit: 10, count: 1 });
    expect(list.body.payload.rows[0]).toMatchObject({
      file_name: 'team.csv',
      pbi_input_type: 'audit_team',
      uploaded_by: 'Fund Audit Administrator',
      sas_token: saved.sas_token,
    });

    const file = await api.app.fetch(new Request(`http://t/api/v2.0/pbi-inputs/file/${saved.id}?token=${saved.token}`));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await file.text()).toBe(TEAM);
    // a session token is not a file token
    expect((await api.app.fetch(new Request(`http://t/api/v2.0/pbi-inputs/file/${saved.id}?token=${token}`))).status).toBe(401);
  });

  it('needs an input type first and a .csv file', async () => {
    const noType = await saveForm({}, { name: 'team.csv', text: TEAM });
    expect(noType.status).toBe(400);
    expect(noType.body.message).toBe('Choose an input type before uploading a file');
    const xlsx = await saveForm({ pbiInputsTypes: 'audit_team' }, { name: 'team.xlsx', text: TEAM });
    expect(xlsx.body.errors).toEqual(['PowerBI inputs take .csv files only']);
    const none = await saveForm({ pbiInputsTypes: 'audit_team' });
    expect(none.body.message).toBe(
      "No csv file was uploaded (multipart field 'upload'); a quote, CR or LF in a file name must be sent as %22, %0D or %0A, as browsers do",
    );
  });

  it('answers 409 while PowerBI inputs are off', async () => {
    const off = await createTestContext({ seedDemoData: false });
    try {
      const res = await apiClient(off).get('pbi-inputs/types', await sessionToken(off, off.boot.admin.id));
      expect(res.status).toBe(409);
      expect(res.body.errors).toEqual(['PowerBI inputs are disabled on this server (setting pbiInputs)']);
    } finally {
      await off.dispose();
    }
  });
});

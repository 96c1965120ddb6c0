/**
 * The multipart forms of mappings, PowerBI inputs and self-onboarding are checked before the
 * call runs: a missing or bad part answers 400 with the spec's message and the part's code in
 * `fieldErrors`, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createTestContext, sessionToken, type TestContext } from '../../testing/context.js';

let ctx: TestContext;
let api: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({ seedDemoData: false, pbiInputs: true });
  api = apiClient(ctx);
  token = await sessionToken(ctx, ctx.boot.admin.id);
});
afterAll(() => ctx.dispose());

const CSV = 'a,b\n1,2\n';
const NO_FILE = (what: string) =>
  `No ${what} was uploaded (multipart field 'upload'); a quote, CR or LF in a file name must be sent as %22, %0D or %0A, as browsers do`;

interface FormCase {
  call: string;
  fields: Record<string, string>;
  files: Array<{ field: string; name: string }>;
  /** The part the answer names, its code and the message the caller sees. */
  field: string;
  code: string;
  message: string;
}

const mapping = { mappingMode: 'custom', administrator: 'acme_admin', mappingType: 'instrument_mapping', mappingName: 'Acme custom', rationale: 'Year end' };
const cases: FormCase[] = [
  {
    call: 'mappings/create',
    fields: { ...mapping, administrator: '' },
    files: [{ field: 'upload', name: 'instrument_mapping.csv' }],
    field: 'administrator',
    code: 'too_small',
    message: 'Choose an administrator',
  },
  {
    call: 'mappings/create',
    fields: { ...mapping, mappingMode: 'everything' },
    files: [{ field: 'upload', name: 'instrument_mapping.csv' }],
    field: 'mappingMode',
    code: 'invalid_value',
    message: 'mappingMode must be master, custom or update-custom',
  },
  { call: 'mappings/create', fields: mapping, files: [], field: 'upload', code: 'missing_file', message: NO_FILE('mapping csv') },
  {
    call: 'pbi-inputs/save',
    fields: {},
    files: [{ field: 'upload', name: 'team.csv' }],
    field: 'pbiInputsTypes',
    code: 'invalid_type',
    message: 'Choose an input type before uploading a file',
  },
  { call: 'pbi-inputs/save', fields: { pbiInputsTypes: 'audit_team' }, files: [], field: 'upload', code: 'missing_file', message: NO_FILE('csv file') },
  {
    call: 'sdm-upload/validate-mappings',
    fields: { code: 'new_tpa' },
    files: [],
    field: 'mappings',
    code: 'missing_file',
    message: 'In order to validate, upload mapping files',
  },
  {
    call: 'sdm-upload/create',
    fields: { name: 'New TPA' },
    files: [{ field: 'mappings', name: 'instrument_mapping.csv' }],
    field: 'code',
    code: 'invalid_type',
    message: 'Choose or create a TPA',
  },
  {
    call: 'sdm-upload/create',
    fields: { code: 'new_tpa', touchedMappings: '{"newMappings": [' },
    files: [],
    field: 'touchedMappings',
    code: 'custom',
    message: 'touchedMappings is not valid JSON',
  },
  {
    call: 'sdm-upload/add-file',
    fields: {},
    files: [{ field: 'upload', name: 'fund_request.csv' }],
    field: 'sdmUploadId',
    code: 'invalid_type',
    message: 'sdmUploadId is required',
  },
  { call: 'sdm-upload/add-file', fields: { sdmUploadId: '7' }, files: [], field: 'upload', code: 'missing_file', message: NO_FILE('.csv file') },
];

describe('multipart forms checked before the call runs', () => {
  it.each(cases)('$call without a good $field answers 400 $code', async (c) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(c.fields)) form.append(k, v);
    for (const f of c.files) form.append(f.field, new Blob([CSV]), f.name);
    const res = await api.call('POST', c.call, { token, body: form });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'validation_failed', message: c.message });
    expect(res.body.errors).toEqual([c.message]);
    expect(res.body.fieldErrors).toEqual([{ in: 'form', field: c.field, code: c.code, message: c.message }]);
  });

  it('stores nothing for a refused form', async () => {
    const administrators = await api.get('sdm-upload/administrators', token);
    expect(administrators.body.payload.map((a: { code: string }) => a.code)).not.toContain('new_tpa');
    const pbi = await api.post('pbi-inputs/list', {}, token);
    expect(pbi.body.payload.pagination.count).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { AuditorFundRow } from '../../api/auditor-types';
import type { MappingRow } from '../../api/custom-mappings';
import { applicableFunds, canUpload, CLIENT_MESSAGE, formErrors, groupByAdministrator, NAME_MESSAGE, resetPairs, type MappingForm } from './mapping-rules';

const mapping = (id: number, admin: string, type: string, kind: 'master' | 'custom', funds: number[] = [], description = `m${id}`): MappingRow => ({
  id,
  type,
  kind,
  description,
  user_auth_id: null,
  owner: null,
  clientName: null,
  rationale: null,
  updated_at: '',
  version: 1,
  administratorName: admin.toUpperCase(),
  administrator: { code: admin, name: admin.toUpperCase(), id: 1 },
  rowCount: 1,
  canLiveMappingBeDeleted: kind === 'custom' && !funds.length,
  fundRequests: funds.map((f) => ({ id: f, code: null })),
  funds: [],
  canToggle: kind === 'custom',
});
const form: MappingForm = {
  administrator: 'demo',
  mappingType: 'account_mapping',
  mode: 'custom',
  name: 'my_map',
  clientName: '',
  rationale: 'client asked',
  customId: null,
};

describe('custom mapping rules', () => {
  it('checks the name, client name and reason of a new custom mapping', () => {
    expect(formErrors(form, [])).toEqual({});
    expect(formErrors({ ...form, name: 'My Map' }, []).name).toBe(NAME_MESSAGE);
    expect(formErrors(form, [mapping(1, 'demo', 'account_mapping', 'custom', [], 'my_map')]).name).toBe(
      'Custom mapping my_map already exist. Please choose different name.',
    );
    expect(formErrors({ ...form, clientName: 'Bad-Client!' }, []).clientName).toBe(CLIENT_MESSAGE);
    expect(formErrors({ ...form, rationale: '' }, []).rationale).toBeDefined();
    expect(formErrors({ ...form, rationale: 'x'.repeat(51) }, []).rationale).toBeDefined();
  });

  it('needs an existing custom mapping to update, and every choice before the upload zone opens', () => {
    expect(formErrors({ ...form, mode: 'update-custom', name: '' }, []).customId).toBeDefined();
    expect(canUpload({ ...form, mode: 'update-custom', customId: 3 }, [])).toBe(true);
    expect(canUpload({ ...form, mappingType: null }, [])).toBe(false);
  });

  it('groups mappings by administrator', () => {
    const groups = groupByAdministrator([
      mapping(1, 'zeta', 'account_mapping', 'master'),
      mapping(2, 'alpha', 'file_layout', 'master'),
      mapping(3, 'zeta', 'file_layout', 'custom'),
    ]);
    expect(groups.map((g) => [g.administrator, g.mappings.length])).toEqual([
      ['ALPHA', 1],
      ['ZETA', 2],
    ]);
  });

  it('resets only funds holding a custom mapping of that administrator and type', () => {
    const list = [mapping(5, 'demo', 'account_mapping', 'custom', [1]), mapping(6, 'demo', 'file_layout', 'custom', [2])];
    expect(resetPairs([1, 2, 3], list, 'demo', 'account_mapping')).toEqual([{ fundRequestId: 1, mappingId: 5 }]);
  });

  it('lists Pending, Open and Closed funds only', () => {
    const rows = ['Pending', 'Approved', 'Completed - Fund Closed', 'Issued', 'Declined'].map((s, i) => ({ id: i, uploadStatus: s }) as AuditorFundRow);
    expect(applicableFunds(rows).map((r) => r.id)).toEqual([0, 1, 2]);
  });
});

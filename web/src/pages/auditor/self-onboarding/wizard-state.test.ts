import { describe, expect, it } from 'vitest';
import type { SdmFile } from '../../../api/self-onboarding';
import {
  canProcess,
  canSaveMappings,
  chipState,
  isProcessing,
  mappingTypeOf,
  mergeFile,
  progressByType,
  sdmTypeOf,
  stepForUpload,
  touchedMappings,
} from './wizard-state';

const file = (id: number, type: SdmFile['type'], sub: string, status: SdmFile['status']): SdmFile => ({
  id,
  file_name: `${sub}.csv`,
  status,
  type,
  sub_type: sub,
  errors: [],
  received_at: '2024-01-02T10:00:00.000Z',
  importFileId: null,
});
const valid = { valid: true, error: null, errors: [], totalErrorsFound: 0, maxErrorsNo: 20, fileName: 'x.csv' };
const invalid = { ...valid, valid: false, error: 'bad', totalErrorsFound: 2 };

describe('self-onboarding wizard rules', () => {
  it('goes to the step of an upload', () => {
    expect(stepForUpload(null)).toBe('SelectTpa');
    expect(stepForUpload({ status: 'Created' })).toBe('Files');
    expect(stepForUpload({ status: 'Processed' })).toBe('Review');
  });

  it('recognises mapping and SDM file names', () => {
    expect(mappingTypeOf('Account_Mapping.csv')).toBe('account_mapping');
    expect(mappingTypeOf('accounts.csv')).toBeNull();
    expect(mappingTypeOf('file_layout.txt')).toBeNull();
    expect(sdmTypeOf('holdings.csv')).toBe('holdings');
    expect(sdmTypeOf('fund_request.csv')).toBe('fund_request');
    expect(sdmTypeOf('demo_holdings.csv')).toBeNull();
  });

  it('gives each mapping type its chip state', () => {
    expect(chipState(false, false, undefined)).toBe('not uploaded');
    expect(chipState(true, false, undefined)).toBe('existing and unchanged');
    expect(chipState(false, true, invalid)).toBe('uploaded and invalid');
    expect(chipState(false, true, valid)).toBe('uploaded and valid');
    expect(chipState(true, true, valid)).toBe('existing and replaced');
  });

  it('saves mappings only when uploads are valid and the needed types exist', () => {
    expect(canSaveMappings([], ['file_layout', 'account_mapping'], { file_layout: valid, account_mapping: valid })).toBe(false);
    expect(canSaveMappings(['instrument_mapping'], ['file_layout', 'account_mapping'], { file_layout: valid, account_mapping: valid })).toBe(true);
    expect(canSaveMappings(['file_layout', 'account_mapping', 'instrument_mapping'], ['account_mapping'], { account_mapping: invalid })).toBe(false);
    expect(canSaveMappings(['file_layout', 'account_mapping', 'instrument_mapping'], [], {})).toBe(true);
    expect(touchedMappings(['file_layout'], ['file_layout', 'account_mapping'])).toEqual({
      deletedMappings: [],
      newMappings: ['account_mapping'],
      updatedMappings: ['file_layout'],
    });
  });

  it('offers Process with a fund request and an SDM file, and follows the progress per type', () => {
    const files = [file(1, 'FundRequest', 'fund_request', 'Validated'), file(2, 'SDM', 'holdings', 'Validated'), file(3, 'SDM', 'holdings', 'Error')];
    expect(canProcess(files)).toBe(true);
    expect(canProcess(files.slice(1))).toBe(false);
    expect(isProcessing(files)).toBe(true);
    const after = mergeFile(files, file(2, 'SDM', 'holdings', 'Uploaded'));
    expect(progressByType(after)).toEqual([
      { type: 'fund_request', done: 0, total: 1 },
      { type: 'holdings', done: 1, total: 1 },
    ]);
    expect(isProcessing(mergeFile(after, file(1, 'FundRequest', 'fund_request', 'Uploaded')))).toBe(false);
  });
});

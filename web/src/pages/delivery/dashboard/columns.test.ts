import { describe, expect, it } from 'vitest';
import { availableColumns, DEFAULT_HIDDEN, LISTING_COLUMNS, mergeColumnOrder, orderColumns } from './columns';

const keys = (cols: ReadonlyArray<{ key: string }>) => cols.map((c) => c.key);

describe('listing columns', () => {
  it('follow the spec order, aggregation columns only with the feature', () => {
    const headers = availableColumns(false).map((c) => c.header);
    expect(headers.slice(0, 16)).toEqual([
      'Administrator',
      'Country',
      'Request date',
      'Period end',
      'Status',
      'Error flag',
      'Process status',
      'Data status',
      'Work papers',
      'Data Requested Status',
      'Self Onboarded',
      'Client',
      'Fund Name',
      'Fund Code',
      'Alternate Codes',
      'Currency',
    ]);
    expect(headers.at(-1)).toBe('Rerun by role');
    const withAggregation = availableColumns(true).map((c) => c.header);
    expect(withAggregation.slice(15, 21)).toEqual(['Is Parent', 'Aggreg Consol Key', 'Aggreg Consol Flag', 'Needs rerun', 'Parent', 'Currency']);
    expect(new Set(keys(LISTING_COLUMNS)).size).toBe(LISTING_COLUMNS.length);
  });

  it('hide accounting standard, PM/TE/SAD, prices and notes by default', () => {
    expect(DEFAULT_HIDDEN).toEqual(expect.arrayContaining(['accounting_standard', 'PM', 'TE', 'SAD', 'notes', 'price_type_1', 'price_source_3']));
    expect(DEFAULT_HIDDEN).not.toContain('name');
  });

  it('re-apply a stored order and place unknown or new columns at their default place', () => {
    const cols = [{ key: 'a' }, { key: 'b' }, { key: 'c' }, { key: 'd' }];
    // b follows a, d follows c (their default predecessors)
    expect(keys(orderColumns(cols, ['c', 'a', 'zz']))).toEqual(['c', 'd', 'a', 'b']);
    expect(keys(orderColumns(cols, []))).toEqual(['a', 'b', 'c', 'd']);
    expect(keys(orderColumns(cols, ['d', 'c', 'b', 'a']))).toEqual(['d', 'c', 'b', 'a']);
  });

  it('merge a reorder of the visible columns into the full order', () => {
    expect(mergeColumnOrder(['a', 'h', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['c', 'h', 'a', 'b']);
  });
});

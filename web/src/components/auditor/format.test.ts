import { describe, expect, it } from 'vitest';
import { dataRequestLabel, exportStatusLabel, percent, yesNo } from './format';

describe('auditor formats', () => {
  it('shows Yes/No and percentages', () => {
    expect(yesNo(true)).toBe('Yes');
    expect(yesNo('Y')).toBe('Yes');
    expect(yesNo(false)).toBe('No');
    expect(yesNo('no')).toBe('No');
    expect(yesNo(null)).toBe('No');
    expect(percent(0.75)).toBe('0.75%');
    expect(percent(null)).toBe('');
  });

  it('labels data request and export statuses', () => {
    expect(dataRequestLabel('Chased2')).toBe('Chased 2');
    expect(dataRequestLabel(null)).toBe('Not requested');
    expect(exportStatusLabel('done')).toBe('Done');
    expect(exportStatusLabel('error')).toBe('Error');
    expect(exportStatusLabel('running')).toBe('Running');
    expect(exportStatusLabel('pending')).toBe('Pending');
    expect(exportStatusLabel('suspended')).toBe('Pending');
  });
});

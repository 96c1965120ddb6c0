import { describe, expect, it } from 'vitest';
import { formatCsvDate, formatDate, formatFileDate, formatPercent, yesNo } from './format';

describe('grid formats', () => {
  it('shows listing dates and file dates alike as DD/MM/YYYY', () => {
    expect(formatDate('2023-03-31')).toBe('31/03/2023');
    expect(formatFileDate('2023-03-31')).toBe('31/03/2023');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('adds the local time of a timestamp when asked', () => {
    const iso = new Date(2024, 0, 5, 7, 8, 9).toISOString();
    expect(formatDate(iso)).toBe('05/01/2024');
    expect(formatDate(iso, true)).toBe('05/01/2024 07:08:09');
    expect(formatFileDate(iso, true)).toBe('05/01/2024 07:08:09');
    // a plain date has no time to add
    expect(formatFileDate('2024-01-05', true)).toBe('05/01/2024');
  });

  it('shows percents with a sign and booleans as Yes/No', () => {
    expect(formatPercent(0.75)).toBe('0.75%');
    expect(formatPercent(null)).toBe('');
    expect(yesNo(true)).toBe('Yes');
    expect(yesNo(false)).toBe('No');
    expect(yesNo('Y')).toBe('Yes');
    expect(yesNo('N')).toBe('No');
    expect(yesNo('no')).toBe('No');
    expect(yesNo(null)).toBe('');
  });

  it('shows a csv date typed as YYYY-MM-DD or DD/MM/YYYY as DD/MM/YYYY, never as typed ISO', () => {
    expect(formatCsvDate('2023-04-30')).toBe('30/04/2023');
    expect(formatCsvDate('3/4/2023')).toBe('03/04/2023');
    expect(formatCsvDate(' 30/04/2023 ')).toBe('30/04/2023');
    expect(formatCsvDate('soon')).toBe('soon');
    expect(formatCsvDate(undefined)).toBe('');
  });
});

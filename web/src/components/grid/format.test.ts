import { describe, expect, it } from 'vitest';
import { formatCsvDate, formatPercent, yesNo } from './format';

describe('grid formats', () => {
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

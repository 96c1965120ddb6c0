import { describe, expect, it } from 'vitest';
import { dataRequestLabel, exportStatusLabel, formatDate, formatDateTime, percent, yesNo } from './format';

describe('auditor formats', () => {
  it('formats dates as DD/MM/YYYY without shifting date-only values', () => {
    expect(formatDate('2023-04-30')).toBe('30/04/2023');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('formats date-times as DD/MM/YYYY HH:mm:ss in local time', () => {
    const d = new Date(2026, 10, 2, 8, 5, 9);
    expect(formatDateTime(d.toISOString())).toBe('02/11/2026 08:05:09');
  });

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

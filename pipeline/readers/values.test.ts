import { describe, expect, it } from 'vitest';
import { cellText, excelSerialToIso, parseDate, parseNumber, type NumberFormat } from './values.js';

const dot: NumberFormat = { decimalSeparator: '.', thousandsSeparator: '' };
const dotComma: NumberFormat = { decimalSeparator: '.', thousandsSeparator: ',' };
const comma: NumberFormat = { decimalSeparator: ',', thousandsSeparator: '.' };

const num = (v: Parameters<typeof parseNumber>[0], fmt: NumberFormat) => {
  const r = parseNumber(v, fmt);
  return r.ok ? r.value : `error: ${r.error}`;
};

describe('parseNumber', () => {
  it.each<[string, NumberFormat, number]>([
    ['1.234.567,89', comma, 1234567.89],
    ['-6.109,28', comma, -6109.28],
    ['92,929855', comma, 92.929855],
    ['132,19281304', comma, 132.19281304],
    ['1', comma, 1],
    ['(1.234,50)', comma, -1234.5],
    ['1.234,50-', comma, -1234.5],
    ['−12,5', comma, -12.5],
    [' 1 234,5 ', { decimalSeparator: ',', thousandsSeparator: ' ' }, 1234.5],
    ["1'234.5", { decimalSeparator: '.', thousandsSeparator: "'" }, 1234.5],
    ['1,234,567.89', dotComma, 1234567.89],
    ['$1,234.56', dotComma, 1234.56],
    ['USD 1,234.56', dotComma, 1234.56],
    ['1,234.56 EUR', dotComma, 1234.56],
    ['€ (12.00)', dot, -12],
    ['40455026.70', dot, 40455026.7],
    ['-0.5', dot, -0.5],
    ['+3', dot, 3],
    ['.5', dot, 0.5],
    ['1.5E-3', dot, 0.0015],
    ['1\u00a0234.5', dot, 1234.5],
  ])('%s -> %s', (text, fmt, expected) => {
    expect(num(text, fmt)).toBe(expected);
  });

  it.each([
    ['n/a', comma],
    ['#VALUE!', comma],
    ['1.5', comma], // a dot decimal under a decimal-comma layout: not three-digit groups
    ['1,234.56', dot], // thousands separator the layout does not declare
    ['1,00', dotComma],
    ['12abc', dot],
    ['-', dot],
    ['1..2', dot],
  ])('%s is not a number', (text, fmt) => {
    expect(num(text, fmt)).toMatch(/^error: '.*' is not a number$/);
  });

  it('keeps xlsx numbers and treats empty as null', () => {
    expect(num(12.5, comma)).toBe(12.5);
    expect(num(null, comma)).toBeNull();
    expect(num('   ', comma)).toBeNull();
    expect(num(new Date('2022-12-31T00:00:00Z'), dot)).toMatch(/error: a date/);
    expect(Object.is(num('-0', dot), 0)).toBe(true);
  });
});

describe('parseDate', () => {
  it.each([
    ['31/03/2023', 'DD/MM/YYYY', '2023-03-31'],
    ['3/1/2023', 'MM/DD/YYYY', '2023-03-01'],
    ['2022-12-31', 'YYYY-MM-DD', '2022-12-31'],
    ['31.12.2022', 'DD.MM.YYYY', '2022-12-31'],
    ['20221231', 'YYYYMMDD', '2022-12-31'],
    ['31/03/2023 00:00:00', 'DD/MM/YYYY', '2023-03-31'],
    ['2022-12-31T00:00:00.000Z', 'DD/MM/YYYY', '2022-12-31'], // a Date after a JSON round trip
    ['2024-02-29', null, '2024-02-29'],
  ])('%s (%s) -> %s', (text, fmt, iso) => {
    expect(parseDate(text, fmt)).toEqual({ ok: true, value: iso });
  });

  it.each([
    ['31/02/2023', 'DD/MM/YYYY'],
    ['2023-03-31', 'DD/MM/YYYY'],
    ['13/13/2023', 'MM/DD/YYYY'],
    ['2023-02-29', 'YYYY-MM-DD'],
    ['yesterday', 'YYYY-MM-DD'],
  ])('%s is not a %s date', (text, fmt) => {
    const r = parseDate(text, fmt);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`format ${fmt}`);
  });

  it('takes xlsx Dates, YYYYMMDD numbers and Excel serials', () => {
    expect(parseDate(new Date(Date.UTC(2022, 11, 31)), 'YYYY-MM-DD')).toEqual({ ok: true, value: '2022-12-31' });
    expect(parseDate(20221231, 'YYYYMMDD')).toEqual({ ok: true, value: '2022-12-31' });
    expect(parseDate(44926, 'YYYY-MM-DD')).toEqual({ ok: true, value: '2022-12-31' });
    expect(excelSerialToIso(1)).toBe('1900-01-01');
    expect(excelSerialToIso(61)).toBe('1900-03-01');
    expect(parseDate(null, 'YYYY-MM-DD')).toEqual({ ok: true, value: null });
  });
});

describe('cellText', () => {
  it('trims text, writes numbers and dates, empty is null', () => {
    expect(cellText('  DBT ')).toBe('DBT');
    expect(cellText(11000)).toBe('11000');
    expect(cellText(new Date(Date.UTC(2023, 2, 31)))).toBe('2023-03-31');
    expect(cellText(' ')).toBeNull();
    expect(cellText(null)).toBeNull();
  });
});

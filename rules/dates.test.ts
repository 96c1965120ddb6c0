import { describe, expect, it } from 'vitest';
import { dateOfIso, displayCell, displayDate, displayDateTime, isoOfDate, isoOfDisplayDate } from './dates.js';

const pad = (n: number) => String(n).padStart(2, '0');

describe('the one display format of dates and timestamps', () => {
  it('shows a date as DD/MM/YYYY, never shifted by the time zone', () => {
    expect(displayDate('2023-03-31')).toBe('31/03/2023');
    expect(displayDateTime('2022-12-31')).toBe('31/12/2022');
  });

  it('shows a timestamp as DD/MM/YYYY, with HH:mm:ss in local time when asked', () => {
    const at = '2023-04-20T10:05:09.000Z';
    const d = new Date(at);
    const date = `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
    expect(displayDate(at)).toBe(date);
    expect(displayDateTime(at)).toBe(`${date} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`);
  });

  it('leaves nothing for no value and unreadable text as it is', () => {
    expect(displayDate(null)).toBe('');
    expect(displayDate('')).toBe('');
    expect(displayDate('next week')).toBe('next week');
  });

  it("formats the command line's table cells that hold ISO dates and leaves other text alone", () => {
    expect(displayCell('2024-02-29')).toBe('29/02/2024');
    expect(displayCell('S000013795')).toBe('S000013795');
    expect(displayCell('2024-02-29 and more')).toBe('2024-02-29 and more');
    expect(displayCell(12.5)).toBe('12.5');
    expect(displayCell(null)).toBe('');
  });

  it('turns an ISO date into the local day a date picker shows, and back, without a time zone shift', () => {
    const d = dateOfIso('2024-02-29');
    expect([d?.getFullYear(), d?.getMonth(), d?.getDate()]).toEqual([2024, 1, 29]);
    expect(isoOfDate(d)).toBe('2024-02-29');
    expect(isoOfDate(new Date(2023, 11, 31, 23, 59))).toBe('2023-12-31');
    expect(dateOfIso('2023-02-30')).toBeNull();
    expect(dateOfIso('')).toBeNull();
    expect(isoOfDate(null)).toBeNull();
  });

  it('reads a date typed as DD/MM/YYYY, refusing one that is not a real date', () => {
    expect(isoOfDisplayDate('31/03/2023')).toBe('2023-03-31');
    expect(isoOfDisplayDate(' 1/2/2024 ')).toBe('2024-02-01');
    expect(isoOfDisplayDate('29/02/2023')).toBeNull();
    expect(isoOfDisplayDate('00/01/2023')).toBeNull();
    expect(isoOfDisplayDate('01/13/2023')).toBeNull();
    expect(isoOfDisplayDate('2023-03-31')).toBeNull();
    expect(isoOfDisplayDate('31/03/0099')).toBe('0099-03-31');
  });
});

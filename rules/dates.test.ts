import { describe, expect, it } from 'vitest';
import { displayCell, displayDate, displayDateTime } from './dates.js';

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
});

import { describe, expect, it } from 'vitest';
import { topWithOther } from './status-data';

describe('status report legend', () => {
  it('keeps the top five and merges the rest into Other', () => {
    const list = [1, 7, 3, 9, 2, 5, 4].map((n) => ({ name: `c${n}`, count: n }));
    expect(topWithOther(list)).toEqual([
      { name: 'c9', count: 9 },
      { name: 'c7', count: 7 },
      { name: 'c5', count: 5 },
      { name: 'c4', count: 4 },
      { name: 'c3', count: 3 },
      { name: 'Other', count: 3 },
    ]);
  });

  it('leaves Other out when five or fewer', () => {
    expect(
      topWithOther([
        { name: 'b', count: 1 },
        { name: 'a', count: 1 },
      ]),
    ).toEqual([
      { name: 'a', count: 1 },
      { name: 'b', count: 1 },
    ]);
    expect(topWithOther([])).toEqual([]);
  });
});

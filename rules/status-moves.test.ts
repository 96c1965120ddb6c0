/** The listing buttons agree with the status machine: a move button is enabled exactly when some selected fund can make that move. */
import { describe, expect, it } from 'vitest';
import { deliveryActionStates, type DeliveryActionStates } from './fund-actions.js';
import { FUND_STATUSES } from './statuses.js';
import { STATUS_MOVES, type StatusAction } from './status-moves.js';

const BUTTON: Partial<Record<StatusAction, keyof DeliveryActionStates>> = { approve: 'open', close: 'close', issue: 'issue', pause: 'pause' };
const selections = FUND_STATUSES.flatMap((a) => FUND_STATUSES.map((b) => [a, b]));

describe('status machine and listing buttons', () => {
  it.each(Object.entries(BUTTON))('%s: enabled when some selected fund may move', (action, button) => {
    const from = STATUS_MOVES[action as StatusAction].from as readonly string[];
    for (const sel of selections) expect(deliveryActionStates(sel)[button!], sel.join(' + ')).toBe(sel.some((s) => from.includes(s)));
  });

  it('Decline: only when every selected fund may be declined (pending)', () => {
    for (const sel of selections)
      expect(deliveryActionStates(sel).decline).toBe(sel.every((s) => (STATUS_MOVES.decline.from as readonly string[]).includes(s)));
  });
});

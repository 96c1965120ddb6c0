import { describe, expect, it } from 'vitest';
import { isActionEnabled, isDeleteEnabled, normalizeStatus } from './listing-actions';

describe('auditor listing action rules', () => {
  it('disables every action with nothing selected', () => {
    expect(isActionEnabled('open', [])).toBe(false);
    expect(isDeleteEnabled([])).toBe(false);
  });

  it('disables an action when every fund is already in its target status', () => {
    expect(isActionEnabled('open', ['Approved', 'approved'])).toBe(false);
    expect(isActionEnabled('close', ['Completed - Fund Closed'])).toBe(false);
    expect(isActionEnabled('issue', ['Issued'])).toBe(false);
    expect(isActionEnabled('open', ['Approved', 'Pending'])).toBe(true);
  });

  it('disables actions for selections of only declined or deleted funds', () => {
    for (const a of ['open', 'close', 'issue'] as const) expect(isActionEnabled(a, ['Declined', 'Deleted'])).toBe(false);
  });

  it('lets Open apply to pending funds and Close try them (the server marks them *)', () => {
    expect(isActionEnabled('open', ['Pending', null])).toBe(true);
    expect(isActionEnabled('close', ['Pending'])).toBe(true);
  });

  it('blocks Close on paused and issued funds', () => {
    expect(isActionEnabled('close', ['Paused', 'Issued', 'Declined'])).toBe(false);
    expect(isActionEnabled('close', ['Paused', 'Approved'])).toBe(true);
    expect(isActionEnabled('open', ['Paused'])).toBe(true);
  });

  it('normalizes statuses case-insensitively with null as Pending', () => {
    expect(normalizeStatus(null)).toBe('Pending');
    expect(normalizeStatus('completed - fund closed')).toBe('Completed - Fund Closed');
  });

  it('enables Delete unless every fund is deleted or issued', () => {
    expect(isDeleteEnabled(['Issued', 'Deleted'])).toBe(false);
    expect(isDeleteEnabled(['Issued', 'Pending'])).toBe(true);
  });
});

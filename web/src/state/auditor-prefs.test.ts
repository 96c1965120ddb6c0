import { describe, expect, it } from 'vitest';
import { applyColumnOrder, columnStateKey } from './auditor-prefs';

describe('auditor column order', () => {
  const defaults = ['name', 'client', 'type', 'dueDate', 'status'];

  it('uses the defaults without a saved order', () => {
    expect(applyColumnOrder(defaults, null)).toEqual(defaults);
  });

  it('restores a saved order and drops unknown or repeated keys', () => {
    expect(applyColumnOrder(defaults, ['status', 'gone', 'name', 'status', 'client', 'type', 'dueDate'])).toEqual([
      'status',
      'name',
      'client',
      'type',
      'dueDate',
    ]);
  });

  it('puts columns the saved order does not know at their default position', () => {
    expect(applyColumnOrder(defaults, ['client', 'name'])).toEqual(['client', 'name', 'type', 'dueDate', 'status']);
    expect(applyColumnOrder(defaults, ['status', 'client'])).toEqual(['name', 'status', 'type', 'dueDate', 'client']);
  });

  it('keys the state per user', () => {
    expect(columnStateKey(7)).toBe('fa.auditor.funds.columns.7');
  });
});

/** Name and value rules, from section 5 of both spec documents. */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.js';
import { capMateriality, clientNameError, mappingNameError, reasonError, requiredFundFields } from './names.js';

describe('name rules', () => {
  // "only lowercase letters, digits and underscore, at most 50 characters"
  it.each([
    ['demo_test_2', null],
    ['a'.repeat(50), null],
    ['a'.repeat(51), MESSAGES.invalidName],
    ['Demo', MESSAGES.invalidName],
    ['demo-test', MESSAGES.invalidName],
    ['', MESSAGES.invalidName],
  ])('mapping name %j -> %j', (name, message) => expect(mappingNameError(name)).toBe(message));

  // "letters, digits, underscore and spaces only, at most 300"
  it.each([
    ['Acme Funds_2', null],
    ['', null],
    ['x'.repeat(301), MESSAGES.invalidClientName],
    ['Acme & Co', MESSAGES.invalidClientName],
  ])('client name %j -> %j', (name, message) => expect(clientNameError(name)).toBe(message));

  it('requires a reason of at most 50 characters', () => {
    expect(reasonError('New chart of accounts')).toBeNull();
    expect(reasonError('  ')).toBe(MESSAGES.reasonRequired);
    expect(reasonError('r'.repeat(51))).toBe(MESSAGES.reasonRequired);
  });

  it('caps materiality values at 100 on entry', () => {
    expect(capMateriality(250)).toBe(100);
    expect(capMateriality(0.75)).toBe(0.75);
    expect(capMateriality(null)).toBeNull();
  });

  it('requires administrator, fund code, client and name only when creating', () => {
    expect(requiredFundFields(false)).toEqual(['period_end', 'currency', 'request_date', 'country', 'PM', 'TE', 'SAD']);
    expect(requiredFundFields(true).slice(0, 4)).toEqual(['administrator', 'fund_code', 'client', 'name']);
  });
});

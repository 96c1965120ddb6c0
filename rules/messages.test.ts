/** Message texts of spec section 8. */
import { describe, expect, it } from 'vitest';
import { deliveryDeleteConfirmation, duplicateMappingMessage, joinMessages, MESSAGES } from './messages.js';

describe('messages', () => {
  it('joins errors with "; " and shows a repeated text once', () => {
    expect(joinMessages(['FX rate missing', 'FX rate missing'])).toBe('FX rate missing');
    expect(joinMessages(['Checks failed', 'FX rate missing', '', null])).toBe('Checks failed; FX rate missing');
    // the message of a log entry with warnings is the warnings joined already
    expect(joinMessages(['a.csv: 2 unmapped code(s); b.csv: 1 unmapped code(s)', 'a.csv: 2 unmapped code(s)', 'b.csv: 1 unmapped code(s)'])).toBe(
      'a.csv: 2 unmapped code(s); b.csv: 1 unmapped code(s)',
    );
  });

  it('writes the spec texts', () => {
    expect(MESSAGES.unchangedWarning).toBe('Warning! Funds marked with * cannot move into the state you have selected. Reselect separately and retry.');
    expect(deliveryDeleteConfirmation(1)).toBe('This will permanently remove this fund request, are you REALLY sure?');
    expect(duplicateMappingMessage('acme')).toBe('Custom mapping acme already exist. Please choose different name.');
  });
});

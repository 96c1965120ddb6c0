import { describe, expect, it } from 'vitest';
import {
  chaseActions,
  contactLabel,
  isChasedFundStatus,
  returnKey,
  returnReasonProblem,
  returnToTpaAction,
  RETURN_REASON_MAX,
  scheduleWords,
} from './chasing.js';

describe('Return to TPA', () => {
  it('is offered on input files and the fund of a pending or open fund request, once until the return closes', () => {
    expect(returnToTpaAction({ fundStatus: 'Approved' })).toEqual({ shown: true, enabled: true, label: 'Return fund to TPA', why: null });
    expect(returnToTpaAction({ fundStatus: null, file: { kind: 'input' } })).toMatchObject({ enabled: true, label: 'Return to TPA' });
    expect(returnToTpaAction({ fundStatus: 'Approved', file: { kind: 'work_paper' } })).toMatchObject({ shown: false, enabled: false });
    expect(returnToTpaAction({ fundStatus: 'Approved', file: { kind: 'input', disabled: true } })).toMatchObject({
      enabled: false,
      why: 'The file is marked not required',
    });
    expect(returnToTpaAction({ fundStatus: 'Issued', file: { kind: 'input' } }).why).toBe('Only pending and open fund requests are chased; this one is Issued');
    expect(returnToTpaAction({ fundStatus: 'Approved', openReturnId: 12 })).toMatchObject({ enabled: false, label: 'Returned' });
    expect(returnToTpaAction({ fundStatus: 'Approved', openReturnId: 12 }).why).toBe(
      'Already returned to the TPA (chase 12); it closes when a new file arrives',
    );
  });

  it('needs a reason of at most the limit', () => {
    expect(returnReasonProblem('  ')).toBe('The reason is required: say what the TPA must correct');
    expect(returnReasonProblem('x'.repeat(RETURN_REASON_MAX + 1))).toBe(`The reason is longer than ${RETURN_REASON_MAX} characters`);
    expect(returnReasonProblem('Prices are as of 30 Nov')).toBeNull();
  });

  it('keys a return by file, or by the fund', () => {
    expect(returnKey(7)).toBe('returned:7');
    expect(returnKey(null)).toBe('returned:fund');
  });
});

describe('chase display', () => {
  it('enables cancel and answer on open chases only, the failing rows when there are some', () => {
    expect(chaseActions({ state: 'sent', hasEvidenceCsv: true })).toEqual({ cancel: true, answer: true, evidence: true });
    expect(chaseActions({ state: 'resolved' })).toEqual({ cancel: false, answer: false, evidence: false });
  });

  it('shows a contact by name, else by address', () => {
    expect(contactLabel({ full_name: 'Dana Data', email: 'dana@tpa.example.com' })).toBe('Dana Data');
    expect(contactLabel({ name: ' ', email: 'reports@tpa.example.com' })).toBe('reports@tpa.example.com');
  });

  it('says a schedule in words', () => {
    expect(scheduleWords([-3, 0, 1, 7])).toBe('3 days before, on the due date, 1 day after, 7 days after');
  });

  it('chases pending and open fund requests only', () => {
    expect([null, 'Pending', 'approved', 'Paused', 'Deleted'].map(isChasedFundStatus)).toEqual([true, true, true, false, false]);
  });
});

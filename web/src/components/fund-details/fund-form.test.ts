import { describe, expect, it } from 'vitest';
import type { FundDetails } from '../../api/auditor-types';
import {
  canEdit,
  capPercent,
  changedFields,
  draftOf,
  emptiedRequired,
  FUND_INFO_FIELDS,
  MATERIALITY_FIELDS,
  presentErrors,
  rowsEditable,
  searchRecipients,
} from './fund-form';

const details = {
  id: 1,
  name: 'Goldman Sachs Bond Fund',
  client: 'GOLDMAN SACHS TRUST',
  fund_code: 'S1',
  fund_codes: [
    { code: 'S1', main: true },
    { code: 'ALT', main: false },
  ],
  administrator: { id: 3, code: 'meridian', name: 'Meridian' },
  status: 'Pending',
  statusLabel: 'Pending',
  rerun_count: 0,
  rerun_by: null,
  rerun_date: null,
  external_valuations: 'Y',
  connected_audit: false,
  administrator_recipients: [{ id: 5, full_name: 'Jane', email: 'jane@example.com', role: 'Auditor' }],
  children: [],
  inputFiles: [],
  standardizationFiles: [],
  workPapers: [],
  hasCsvOutputs: false,
  dataStatusCounts: {
    rawCount: 0,
    pendingCount: 0,
    processingCount: 0,
    processedCount: 0,
    assignedCount: 0,
    errorCount: 0,
    onBoardingCount: 0,
    notRequiredCount: 0,
    notReviewedCount: 0,
  },
  editable: { rows: true, reason: null, comments: true, recipients: true },
  assignedCount: 0,
  is_parent: false,
  parentId: null,
  PM: 1,
  TE: 0.75,
  SAD: 0.05,
  audit_comments: null,
  country: 'US',
} as unknown as FundDetails;

describe('fund details form', () => {
  it('sends nothing when nothing changed', () => {
    expect(changedFields(details, draftOf(details))).toEqual({});
  });

  it('sends only the changed fields', () => {
    const d = draftOf(details);
    d.audit_comments = 'Checked';
    d.PM = null;
    expect(changedFields(details, d)).toEqual({ audit_comments: 'Checked', PM: null });
  });

  it('sends the codes with the main code kept when alternatives change', () => {
    const d = draftOf(details);
    d.alternative_codes = ['ALT', 'NEW', ' '];
    expect(changedFields(details, d)).toEqual({
      fund_codes: [
        { code: 'S1', main: true },
        { code: 'ALT', main: false },
        { code: 'NEW', main: false },
      ],
    });
  });

  it('sends the recipients when one is added', () => {
    const d = draftOf(details);
    d.recipients = [...d.recipients, { key: 'k1', full_name: 'Sam', email: 'sam@example.com', role: 'Auditor' }];
    expect(changedFields(details, d).administrator_recipients).toEqual([
      { full_name: 'Jane', email: 'jane@example.com', role: 'Auditor' },
      { full_name: 'Sam', email: 'sam@example.com', role: 'Auditor' },
    ]);
  });

  it('caps materialities at 100', () => {
    expect(capPercent('150')).toBe(100);
    expect(capPercent('2.5')).toBe(2.5);
    expect(capPercent('')).toBeNull();
  });

  it('keeps read-only fields read-only and rows editable only when Pending with nothing assigned', () => {
    const name = FUND_INFO_FIELDS.find((f) => f.key === 'name')!;
    const country = FUND_INFO_FIELDS.find((f) => f.key === 'country')!;
    expect(canEdit(name, true)).toBe(false);
    expect(canEdit(country, true)).toBe(true);
    expect(canEdit(country, false)).toBe(false);
    expect(rowsEditable({ status: 'Approved', assignedCount: 0, editable: undefined as never })).toBe(false);
    expect(rowsEditable({ status: 'Pending', assignedCount: 2, editable: undefined as never })).toBe(false);
    expect(rowsEditable({ status: 'Pending', assignedCount: 0, editable: undefined as never })).toBe(true);
  });

  it('shows RTT fields only with a connected audit', () => {
    const d = draftOf(details);
    const shown = () => MATERIALITY_FIELDS.filter((f) => !f.show || f.show({ draft: d, config: {} })).map((f) => f.key);
    expect(shown()).toEqual(['PM', 'TE', 'SAD']);
    d.connected_audit = true;
    expect(shown()).toEqual(['PM', 'TE', 'SAD', 'RTTPlus', 'RTTMinus']);
  });

  it('presents at most five errors with the footer', () => {
    const errors = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(presentErrors(errors)).toEqual({ shown: ['a', 'b', 'c', 'd', 'e'], footer: 'Presenting 5 out of 7 errors. Please fix values and try again.' });
    expect(presentErrors(['a']).footer).toBeNull();
  });

  it('searches recipients by name, email or role', () => {
    const list = [
      { full_name: 'Jane Doe', email: 'jane@example.com', role: 'Auditor' },
      { full_name: 'Sam', email: 'sam@x.com', role: 'Manager' },
    ];
    expect(searchRecipients(list, 'MANAGER').map((r) => r.full_name)).toEqual(['Sam']);
    expect(searchRecipients(list, 'jane@').map((r) => r.full_name)).toEqual(['Jane Doe']);
    expect(searchRecipients(list, '')).toHaveLength(2);
  });

  it('names the required fields a change empties (no Save changes then), and only those', () => {
    expect(emptiedRequired({ PM: null, period_end: '', audit_comments: '' })).toEqual(['Period end is required', 'PM is required']);
    expect(emptiedRequired({ PM: 0.5, notes: null })).toEqual([]);
  });
});

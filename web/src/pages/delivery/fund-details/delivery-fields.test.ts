import { describe, expect, it } from 'vitest';
import type { FundDetails } from '../../../api/auditor-types';
import { changedFields, draftOf } from '../../../components/fund-details/fund-form';
import { blankFund, canEditField, DELIVERY_COMMENT_FIELDS, DELIVERY_FIELDS, FORM_SECTIONS, newFundPayload } from './delivery-fields';

const field = (key: string) => DELIVERY_FIELDS.find((f) => f.key === key)!;

describe('delivery fund details form', () => {
  it('shows every fund details field of the spec once', () => {
    const keys = DELIVERY_FIELDS.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of [
      'fund_code',
      'period_start',
      'period_end',
      'request_date',
      'due_date',
      'audit_start_date',
      'nav_close_date',
      'job_type',
      'fund_sub_type',
      'audit_type',
      'ey_country',
      'country',
      'currency',
      'is_parent',
      'soi_rec_type',
      'fihi_type',
      'has_investment_analyzer',
      'engagement_code',
      'financial_year',
      'accounting_period',
      'notes',
    ]) {
      expect(keys).toContain(k);
    }
    expect(DELIVERY_COMMENT_FIELDS.map((f) => f.label)).toEqual(['Audit comments', 'TPA comments', 'Delivery team comments']);
    expect(FORM_SECTIONS.map((s) => s.title)).toContain('Materialities');
  });

  it('lets the fund code change only on a new fund, comments always, rows as the server says', () => {
    const rowsLocked = { rowsEditable: false, creating: false };
    expect(canEditField(field('fund_code'), { rowsEditable: true, creating: false })).toBe(false);
    expect(canEditField(field('fund_code'), { rowsEditable: false, creating: true })).toBe(true);
    expect(canEditField(field('delivery_comments'), rowsLocked)).toBe(true);
    expect(canEditField(field('period_end'), rowsLocked)).toBe(false);
    expect(canEditField(field('name'), { rowsEditable: true, creating: false })).toBe(true);
    expect(canEditField(field('status'), { rowsEditable: true, creating: true })).toBe(false);
  });

  it('sends the changed delivery fields, including those the auditor modal does not edit', () => {
    const fund = {
      ...blankFund(new Date('2024-05-01T10:00:00Z')),
      id: 7,
      name: 'Old',
      fund_code: 'S1',
      fund_codes: [{ code: 'S1', main: true }],
    } as FundDetails;
    const d = draftOf(fund, DELIVERY_FIELDS);
    d.name = 'New name';
    d.financial_year = '2024';
    expect(changedFields(fund, d, DELIVERY_FIELDS)).toEqual({ name: 'New name', financial_year: '2024' });
  });

  it('builds a new fund: values set, main code first, empty codes dropped', () => {
    const d = draftOf(blankFund(new Date('2024-05-01T10:00:00Z')), DELIVERY_FIELDS);
    Object.assign(d, {
      fund_code: ' S000077001 ',
      name: 'Kentucky Intermediate Series ',
      client: 'Dupree',
      PM: 1,
      administrator_code: 'keystone_admin',
      alternative_codes: ['', 'ALT1'],
    });
    const p = newFundPayload(d);
    expect(p).toMatchObject({
      name: 'Kentucky Intermediate Series',
      client: 'Dupree',
      PM: 1,
      request_date: '2024-05-01',
      administrator: 'keystone_admin',
      external_valuations: 'N',
    });
    expect(p.fund_codes).toEqual([
      { code: 'S000077001', main: true },
      { code: 'ALT1', main: false },
    ]);
    expect(p).not.toHaveProperty('status');
    expect(p).not.toHaveProperty('administrator_recipients');
  });
});

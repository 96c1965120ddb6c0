/**
 * Test-only: compares each sheet of a work paper with the rows recomputed from the fund's
 * delivered files (`expected-sheets.ts`), cell by cell, amounts to the cent.
 */
import type ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { expectedSheets } from './expected-sheets.js';
import { expectRow, expectRows, rowOf, section, sheetRows } from './sheets.js';

export type ExpectedSheets = ReturnType<typeof expectedSheets>;

/** Summary: fund, NAV and holdings with their files and lines, status, mappings, materiality, every check item. */
export function checkSummary(wb: ExcelJS.Workbook, e: ExpectedSheets, fund: { name: string; code: string; administrator: string; client: string }): void {
  const rows = sheetRows(wb, 'Summary');
  for (const [item, value] of [
    ['Fund', fund.name],
    ['Fund code', fund.code],
    ['Administrator', fund.administrator],
    ['Client', fund.client],
    ...e.summary.fields,
  ])
    expect(rowOf(rows, item)[1], `Summary ${item}`).toBe(value);
  expectRow(rowOf(rows, 'NAV'), e.summary.nav, 'Summary NAV');
  expectRow(rowOf(rows, 'Holdings'), e.summary.holdings, 'Summary Holdings');
  expectRows(section(rows, 'Mappings applied'), e.summary.mappings, 'Summary mappings applied');
  expectRows(section(rows, 'Materiality'), e.summary.materiality, 'Summary materiality');
  expectRows(section(rows, 'Check'), e.summary.checks, 'Summary checks');
}

/** Trial balance: every delivered account with its mapping, class, file and line; the totals. */
export function checkTrialBalance(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Trial balance');
  expectRows(section(rows, 'Account code'), e.trialBalance, 'Trial balance');
  for (const [name, amount] of e.tbTotals) expectRow(rowOf(rows, name, 1), [null, name, null, null, null, null, amount], `Trial balance ${name}`);
}

/** Holdings: one row per delivered position (all columns), the totals row. */
export function checkHoldings(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Holdings');
  expectRows(section(rows, 'Security id'), e.holdings, 'Holdings');
  expectRow(rows[e.holdings.length + 2], e.holdingsTotal, 'Holdings total');
}

export function checkInvestments(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Investments reconciliation');
  expectRows(section(rows, 'Item'), e.investments.items, 'Investments reconciliation');
  expectRows(section(rows, 'Holdings by standard instrument type'), e.investments.byInstrument, 'Holdings by standard instrument type');
  expectRows(section(rows, 'Trial balance accounts'), e.investments.accounts, 'Investments: trial balance accounts');
}

/** Price testing: its items (the rates are on FX testing). */
export function checkPriceTesting(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Price testing');
  expectRows(section(rows, 'Item'), e.priceTesting.items, 'Price testing items');
}

/** FX testing: its items, the tolerance, per currency the TPA's and the independent rate with date, source and age, per TPA rate. */
export function checkFxTesting(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'FX testing');
  expectRows(section(rows, 'Item'), e.fxTesting.items, 'FX testing items');
  expect(rowOf(rows, 'Tolerance')[1], 'FX tolerance').toBeCloseTo(e.fxTesting.tolerance / 100, 12);
  if (!e.fxTesting.currencies.length) {
    expect(rows.some((r) => r[0] === 'Currency')).toBe(false);
    return;
  }
  expectRows(section(rows, 'Currency'), e.fxTesting.currencies, 'FX testing by currency');
  expectRows(section(rows, 'By TPA rate: currency'), e.fxTesting.byRate, 'FX testing by TPA rate');
}

export function checkCapital(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Capital roll-forward');
  expectRows(section(rows, 'Share class (shares)'), e.capital.shares, 'Capital: shares');
  expectRows(section(rows, 'Share class (amounts, USD)'), e.capital.amounts, 'Capital: amounts');
  expectRows(section(rows, 'Comparison'), e.capital.comparisons, 'Capital: comparisons');
}

export function checkUnadjusted(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Unadjusted differences');
  expectRows(section(rows, 'Check'), e.unadjusted.differences, 'Unadjusted differences');
  expectRows(section(rows, 'Materiality'), e.unadjusted.materiality, 'Unadjusted differences: materiality');
  expectRows(section(rows, 'Totals'), e.unadjusted.totals, 'Unadjusted differences: totals');
  if (e.unadjusted.notPerformed.length)
    expectRows(section(rows, 'Not performed (no difference measured)'), e.unadjusted.notPerformed, 'Unadjusted differences: not performed');
  else expect(rows.some((r) => r[0] === 'Not performed (no difference measured)')).toBe(false);
}

export function checkExceptions(wb: ExcelJS.Workbook, e: ExpectedSheets): void {
  const rows = sheetRows(wb, 'Exceptions');
  expectRows(section(rows, 'Check'), e.exceptions.length ? e.exceptions : [['No exceptions: every check item passed']], 'Exceptions');
}

/** Every sheet. */
export function checkAllSheets(wb: ExcelJS.Workbook, e: ExpectedSheets, fund: Parameters<typeof checkSummary>[2]): void {
  checkSummary(wb, e, fund);
  checkTrialBalance(wb, e);
  checkHoldings(wb, e);
  checkInvestments(wb, e);
  checkPriceTesting(wb, e);
  checkFxTesting(wb, e);
  checkCapital(wb, e);
  checkUnadjusted(wb, e);
  checkExceptions(wb, e);
}

/**
 * Comparing a case's actual outputs with its expected ones, with differences written for a person:
 * rows are paired (identical rows first, then by key columns, then in order), each differing pair
 * names its columns and shows expected vs actual; unpaired rows are counted as missing or extra.
 * Check snapshots are compared status by status and figure by figure within their tolerance.
 */
import type { LayoutSdmType } from '../../../pipeline/mappings/parse.js';
import { KEY_COLUMNS, standardizedColumns, type ChecksSnapshot, type Figure } from './outputs.js';

/** Most differing rows described in a report. */
const MAX_SHOWN = 5;

export interface RowDifference {
  /** 1-based position of the expected row in the expected CSV. */
  expectedRow: number;
  actualRow: number;
  /** Line in the delivered file the actual row comes from, when known. */
  line: number | null;
  key: string;
  columns: string[];
  expected: Record<string, string>;
  actual: Record<string, string>;
}

export interface RowsComparison {
  equal: boolean;
  expectedRows: number;
  actualRows: number;
  differingRows: number;
  missingRows: number;
  extraRows: number;
  /** The first differing rows. */
  differences: RowDifference[];
  /** The first missing (expected, not produced) and extra (produced, not expected) rows. */
  missing: Array<Record<string, string>>;
  extra: Array<Record<string, string>>;
  /** One line: what differs. */
  message: string;
  /** Several lines: the first differences in full. */
  report: string;
}

function sameCell(kind: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (kind !== 'number' || a === '' || b === '') return false;
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

const q = (v: string) => (v === '' ? '(empty)' : `'${v}'`);

/**
 * Compares standardized rows.
 * @param expected rows of the expected CSV
 * @param actual rows produced (cell records) with the file line of each (`lines[i]`)
 */
export function compareRows(
  type: LayoutSdmType,
  expected: Array<Record<string, string>>,
  actual: Array<Record<string, string>>,
  lines: Array<number | null> = [],
): RowsComparison {
  const cols = standardizedColumns(type);
  const keyOf = (r: Record<string, string>) => KEY_COLUMNS[type].map((k) => `${k} ${r[k] ?? ''}`).join(', ');
  const whole = (r: Record<string, string>) => cols.map((c) => r[c.name] ?? '').join('\u0000');
  // 1. identical rows
  const byWhole = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, k: string, i: number) => (m.get(k) ?? m.set(k, []).get(k)!).push(i);
  actual.forEach((r, i) => push(byWhole, whole(r), i));
  const usedActual = new Set<number>();
  const openExpected: number[] = [];
  expected.forEach((r, i) => {
    const hit = byWhole.get(whole(r))?.find((j) => !usedActual.has(j));
    if (hit === undefined) openExpected.push(i);
    else usedActual.add(hit);
  });
  // 2. pair the rest by key, then in order
  const openActual = () => actual.map((_, j) => j).filter((j) => !usedActual.has(j));
  const byKey = new Map<string, number[]>();
  for (const j of openActual()) push(byKey, keyOf(actual[j]), j);
  const pairs: Array<[number, number]> = [];
  const unpaired: number[] = [];
  for (const i of openExpected) {
    const j = byKey.get(keyOf(expected[i]))?.shift();
    if (j === undefined) unpaired.push(i);
    else {
      usedActual.add(j);
      pairs.push([i, j]);
    }
  }
  const restActual = openActual();
  const missingIdx: number[] = [];
  unpaired.forEach((i, n) => {
    if (n < restActual.length) {
      usedActual.add(restActual[n]);
      pairs.push([i, restActual[n]]);
    } else missingIdx.push(i);
  });
  const extraIdx = openActual();
  const differences: RowDifference[] = [];
  for (const [i, j] of pairs.sort((a, b) => a[0] - b[0])) {
    const columns = cols.filter((c) => !sameCell(c.kind, expected[i][c.name] ?? '', actual[j][c.name] ?? '')).map((c) => c.name);
    if (columns.length)
      differences.push({
        expectedRow: i + 1,
        actualRow: j + 1,
        line: lines[j] ?? null,
        key: keyOf(expected[i]),
        columns,
        expected: expected[i],
        actual: actual[j],
      });
  }
  const equal = !differences.length && !missingIdx.length && !extraIdx.length;
  const base = {
    equal,
    expectedRows: expected.length,
    actualRows: actual.length,
    differingRows: differences.length,
    missingRows: missingIdx.length,
    extraRows: extraIdx.length,
  };
  if (equal) return { ...base, differences: [], missing: [], extra: [], message: `${type}: ${actual.length} row(s) as expected`, report: '' };
  const describe = (d: RowDifference) =>
    `row ${d.expectedRow} (${d.key}${d.line ? `, file line ${d.line}` : ''}): ${d.columns.map((c) => `${c} expected ${q(d.expected[c] ?? '')}, actual ${q(d.actual[c] ?? '')}`).join('; ')}`;
  const parts = [
    differences.length ? `${differences.length} row(s) differ` : '',
    missingIdx.length ? `${missingIdx.length} expected row(s) missing` : '',
    extraIdx.length ? `${extraIdx.length} unexpected row(s)` : '',
  ].filter(Boolean);
  const first = differences[0] ? `; first: ${describe(differences[0])}` : '';
  const message = `${type}: ${parts.join(', ')} (expected ${expected.length} rows, got ${actual.length})${first}`;
  const names = cols.map((c) => c.name);
  const csvLine = (r: Record<string, string>) => names.map((c) => r[c] ?? '').join(',');
  const report: string[] = [message, '', `columns:  ${names.join(',')}`];
  for (const d of differences.slice(0, MAX_SHOWN)) {
    report.push('', `${describe(d)}`, `  expected: ${csvLine(d.expected)}`, `  actual:   ${csvLine(d.actual)}`, `  differing columns: ${d.columns.join(', ')}`);
  }
  if (differences.length > MAX_SHOWN) report.push('', `... and ${differences.length - MAX_SHOWN} more differing row(s)`);
  for (const i of missingIdx.slice(0, MAX_SHOWN)) report.push('', `missing row ${i + 1} (${keyOf(expected[i])}):`, `  expected: ${csvLine(expected[i])}`);
  for (const j of extraIdx.slice(0, MAX_SHOWN))
    report.push('', `unexpected row (${keyOf(actual[j])}${lines[j] ? `, file line ${lines[j]}` : ''}):`, `  actual:   ${csvLine(actual[j])}`);
  return {
    ...base,
    differences: differences.slice(0, MAX_SHOWN),
    missing: missingIdx.slice(0, MAX_SHOWN).map((i) => expected[i]),
    extra: extraIdx.slice(0, MAX_SHOWN).map((j) => actual[j]),
    message,
    report: report.join('\n'),
  };
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });
const within = (f: Figure, v: number) => Math.abs(f.value - v) <= f.tolerance + 1e-9;

/** Compares check snapshots; returns one readable line per difference (empty when equal). */
export function compareChecks(expected: ChecksSnapshot, actual: ChecksSnapshot): string[] {
  const out: string[] = [];
  if (expected.status !== actual.status) out.push(`overall status: expected ${expected.status}, actual ${actual.status}`);
  for (const k of ['pass', 'warning', 'fail'] as const) {
    if (expected.summary[k] !== actual.summary[k]) out.push(`summary.${k}: expected ${expected.summary[k]}, actual ${actual.summary[k]}`);
  }
  for (const [name, f] of Object.entries(expected.figures)) {
    const v = actual.figures[name]?.value;
    if (v === undefined) out.push(`${name}: expected ${fmt(f.value)}, actual missing`);
    else if (!within(f, v)) out.push(`${name}: expected ${fmt(f.value)} ± ${fmt(f.tolerance)}, actual ${fmt(v)} (difference ${fmt(v - f.value)})`);
  }
  for (const [id, e] of Object.entries(expected.checks)) {
    const a = actual.checks[id];
    if (!a) {
      out.push(`${id}: expected ${e.items.length} item(s), the check produced none`);
      continue;
    }
    const st = (s: Partial<Record<string, number>>) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(s)
            .filter(([, n]) => n)
            .sort(),
        ),
      );
    if (st(e.statuses) !== st(a.statuses)) out.push(`${id}: statuses expected ${st(e.statuses)}, actual ${st(a.statuses)}`);
    const remaining = [...a.items];
    for (const item of e.items) {
      const i = remaining.findIndex((x) => x.name === item.name);
      if (i < 0) {
        out.push(`${id} '${item.name}': expected (${item.status}, diff ${fmt(item.diff)}), actual missing`);
        continue;
      }
      const got = remaining.splice(i, 1)[0];
      if (got.status !== item.status) out.push(`${id} '${item.name}': status expected ${item.status}, actual ${got.status}`);
      if (!within({ value: item.diff, tolerance: e.tolerance }, got.diff))
        out.push(`${id} '${item.name}': diff expected ${fmt(item.diff)} ± ${fmt(e.tolerance)}, actual ${fmt(got.diff)}`);
    }
    for (const extra of remaining) out.push(`${id} '${extra.name}': unexpected item (${extra.status}, diff ${fmt(extra.diff)})`);
  }
  for (const id of Object.keys(actual.checks)) if (!expected.checks[id]) out.push(`${id}: unexpected check with ${actual.checks[id].items.length} item(s)`);
  return out;
}

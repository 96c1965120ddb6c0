/**
 * The difference between two versions of a mapping (Live mappings history, `mappings diff`):
 * rows added, removed and changed, each row found by its key. A code mapping's key is its source
 * code (trimmed, case-insensitive, as the pipeline looks codes up); a file layout's key is the SDM
 * type and SDM column it fills. Pure: rows in, differences out.
 */
import type { MappingType } from '../sdm/model.js';
import { codeKey } from './parse.js';

export type MappingRowValues = Record<string, string>;

/** A row present in both versions with different values. */
export interface ChangedRow {
  key: string;
  from: MappingRowValues;
  to: MappingRowValues;
  /** Columns whose value differs. */
  columns: string[];
}

export interface MappingDiff {
  added: Array<{ key: string; row: MappingRowValues }>;
  removed: Array<{ key: string; row: MappingRowValues }>;
  changed: ChangedRow[];
  /** Rows equal in both versions. */
  unchanged: number;
}

/** The key a mapping row is matched on between versions (see the module's description). */
export function mappingRowKey(type: MappingType | string, row: MappingRowValues): string {
  if (type === 'file_layout') return `${(row.sdm_type ?? '').trim().toLowerCase()}.${(row.sdm_column ?? '').trim().toLowerCase()}`;
  return codeKey(row.source_code ?? '');
}

/** Rows by key; a key met again gets `#2`, `#3` ... so that no row is lost. */
function byKey(type: string, rows: MappingRowValues[]): Map<string, MappingRowValues> {
  const out = new Map<string, MappingRowValues>();
  for (const row of rows) {
    const base = mappingRowKey(type, row);
    let key = base;
    for (let n = 2; out.has(key); n++) key = `${base}#${n}`;
    out.set(key, row);
  }
  return out;
}

/**
 * Compares the rows of two versions of one mapping.
 * @param type the mapping type (decides the row key)
 * @param from the older version's rows; `to` the newer one's
 * @returns added, removed and changed rows in key order, and how many are unchanged
 */
export function diffMappingRows(type: MappingType | string, from: MappingRowValues[], to: MappingRowValues[]): MappingDiff {
  const a = byKey(type, from);
  const b = byKey(type, to);
  const out: MappingDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [key, row] of a) {
    const next = b.get(key);
    if (!next) {
      out.removed.push({ key, row });
      continue;
    }
    const columns = [...new Set([...Object.keys(row), ...Object.keys(next)])].filter((c) => (row[c] ?? '') !== (next[c] ?? ''));
    if (columns.length) out.changed.push({ key, from: row, to: next, columns });
    else out.unchanged++;
  }
  for (const [key, row] of b) if (!a.has(key)) out.added.push({ key, row });
  const order = <T extends { key: string }>(x: T[]) => x.sort((p, q) => p.key.localeCompare(q.key));
  order(out.added);
  order(out.removed);
  order(out.changed);
  return out;
}

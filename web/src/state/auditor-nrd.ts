/** Reference data (`GET /nrd`) for the auditor area, loaded once per page view on first use. */
import { proxy } from 'valtio';
import { fetchNrd } from '../api/auditor';
import type { Nrd, RefEntry } from '../api/auditor-types';

export const auditorNrd = proxy<{ nrd: Nrd | null }>({ nrd: null });

let pending: Promise<Nrd | null> | null = null;

/** Loads the reference data unless already loaded or loading. */
export function loadAuditorNrd(): Promise<Nrd | null> {
  if (auditorNrd.nrd) return Promise.resolve(auditorNrd.nrd as Nrd);
  pending ??= fetchNrd()
    .then((nrd) => {
      auditorNrd.nrd = nrd;
      return nrd;
    })
    .catch(() => null)
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Select options of a list: value = code, label = alt_code; deprecated entries left out. */
export function refOptions(list: readonly RefEntry[] | undefined): Array<{ value: string; label: string }> {
  return (list ?? []).filter((e) => !e.deprecated).map((e) => ({ value: e.code, label: e.alt_code || e.code }));
}

/** The label of a code in a list (the code itself when unknown). */
export function refLabel(list: readonly RefEntry[] | undefined, code: unknown): string {
  if (code === null || code === undefined || code === '') return '';
  const hit = (list ?? []).find((e) => e.code === code);
  return hit ? hit.alt_code || hit.code : String(code);
}

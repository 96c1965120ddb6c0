/** Reference data (`GET /nrd`) loaded once per page view and shared by the delivery pages. */
import { proxy } from 'valtio';
import { fetchNrd } from '../api/delivery-files';
import type { Nrd, RefEntry } from '../api/delivery-types';

/** The loaded reference data, whether a load is under way, and whether the last one failed. */
export const nrdStore = proxy<{ nrd: Nrd | null; loading: boolean; failed: boolean }>({ nrd: null, loading: false, failed: false });

let pending: Promise<Nrd | null> | null = null;

/** Loads the reference data unless loaded (or loading); `force` reloads (new administrators, users). */
export function loadNrd(force = false): Promise<Nrd | null> {
  if (pending && !force) return pending;
  if (nrdStore.nrd && !force) return Promise.resolve(nrdStore.nrd as Nrd);
  nrdStore.loading = true;
  nrdStore.failed = false;
  pending = fetchNrd()
    .then((nrd) => {
      nrdStore.nrd = nrd;
      return nrd;
    })
    .catch(() => {
      nrdStore.failed = true;
      return null;
    })
    .finally(() => {
      nrdStore.loading = false;
      pending = null;
    });
  return pending;
}

/** Select options of a list: value = code, label = alt_code (deprecated entries are already left out). */
export function optionsOf(list: readonly RefEntry[] | undefined): Array<{ value: string; label: string }> {
  return (list ?? []).filter((e) => !e.deprecated).map((e) => ({ value: e.code, label: e.alt_code || e.code }));
}

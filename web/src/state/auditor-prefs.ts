/**
 * Per-user preferences of the auditor funds listing kept in the browser's local storage: the
 * column order (spec 2.3: 'column order saved in browser storage under a user-preferred column
 * state key and restored on load'). Reading is tolerant: anything malformed gives the default.
 */

/** The storage key of a user's column state. */
export function columnStateKey(userId: string | number): string {
  return `fa.auditor.funds.columns.${userId}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * Orders `defaults` by a saved order: saved keys in their saved order (unknown ones dropped), and
 * any column the saved state does not know at its default position.
 */
export function applyColumnOrder(defaults: readonly string[], saved: readonly string[] | null): string[] {
  if (!saved?.length) return [...defaults];
  const known = saved.filter((k, i) => defaults.includes(k) && saved.indexOf(k) === i);
  const rest = defaults.filter((k) => !known.includes(k));
  const out = [...known];
  // a column the saved order does not know (a new one) goes to its default position
  for (const k of rest) out.splice(Math.min(defaults.indexOf(k), out.length), 0, k);
  return out;
}

/** The saved column order of a user, or null. */
export function readColumnOrder(userId: string | number): string[] | null {
  try {
    const raw = storage()?.getItem(columnStateKey(userId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { columnOrder?: unknown };
    const order = parsed?.columnOrder;
    return Array.isArray(order) && order.every((k) => typeof k === 'string') ? (order as string[]) : null;
  } catch {
    return null;
  }
}

/** Saves a user's column order. */
export function saveColumnOrder(userId: string | number, columnOrder: readonly string[]): void {
  try {
    storage()?.setItem(columnStateKey(userId), JSON.stringify({ columnOrder }));
  } catch {
    // storage full or disabled: the order is kept for this page view only
  }
}

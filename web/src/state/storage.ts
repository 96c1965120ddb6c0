/** Browser session storage access (keys of the app), tolerant of disabled storage. */

export const TOKEN_KEY = 'fa.token';
export const LAST_ROUTE_KEY = 'fa.lastRoute';

function store(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Reads a session storage value, or null. */
export function readSession(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Writes (or with null, removes) a session storage value. */
export function writeSession(key: string, value: string | null): void {
  try {
    const s = store();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // storage full or disabled: the app keeps working for this page view
  }
}

/** Clears the whole browser session storage (logout). */
export function clearSessionStorage(): void {
  try {
    store()?.clear();
  } catch {
    // nothing to clear
  }
}

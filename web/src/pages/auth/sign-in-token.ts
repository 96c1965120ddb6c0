/** Reads the one-time sign-in token from the redeem link (`/redeemToken/#<token>`). Pure. */
export function tokenFromRedeemUrl(hash: string, pathname = ''): string | null {
  let raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw.startsWith('token=')) raw = raw.slice('token='.length);
  if (!raw) {
    const m = /^\/redeemToken\/([^/]+)\/?$/.exec(pathname);
    raw = m?.[1] ?? '';
  }
  try {
    raw = decodeURIComponent(raw.trim());
  } catch {
    return null;
  }
  return raw ? raw : null;
}

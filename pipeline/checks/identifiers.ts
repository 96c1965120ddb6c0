/**
 * Security identifier check digits (DOMAIN.md 2.4 item 6).
 * - ISIN (ISO 6166): 2-letter country + 9 alphanumerics + 1 check digit; letters expanded to two
 *   digits (A=10 ... Z=35), then the Luhn (mod 10) algorithm over the whole digit string.
 * - CUSIP: 8 characters + 1 check digit, the modulus-10 "double-add-double": values 0-9, A=10 ...
 *   Z=35, * = 36, @ = 37, # = 38; every second value (positions 2, 4, 6, 8) doubled; add the digits
 *   of each product (v div 10 + v mod 10); check = (10 - sum mod 10) mod 10.
 * - FIGI (Bloomberg's open identifier, e.g. BBG019PMT1H1, which is also shaped like an ISIN): two
 *   consonants, `G`, 8 consonants / digits, check digit by the same double-add-double over 11
 *   characters. Recognised so that FIGIs sent as INTERNAL ids are not misread as bad ISINs.
 */

export const ISIN_SHAPE = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;
export const CUSIP_SHAPE = /^[A-Z0-9*@#]{8}[0-9]$/;
export const FIGI_SHAPE = /^[B-DF-HJ-NP-TV-Z]{2}G[B-DF-HJ-NP-TV-Z0-9]{8}[0-9]$/;

const charValue = (ch: string): number => {
  if (ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 48;
  if (ch >= 'A' && ch <= 'Z') return ch.charCodeAt(0) - 55;
  if (ch === '*') return 36;
  if (ch === '@') return 37;
  if (ch === '#') return 38;
  throw new RangeError(`invalid identifier character "${ch}"`);
};

/** Check digit an ISIN's first 11 characters call for. */
export function isinCheckDigit(first11: string): number {
  const digits = [...first11.toUpperCase()].map((c) => String(charValue(c))).join('');
  // Luhn: double every second digit from the right of the payload (the check digit is appended after).
  let total = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return (10 - (total % 10)) % 10;
}

/** Modulus-10 double-add-double check digit of `payload` (CUSIP: 8 characters, FIGI: 11). */
export function doubleAddDouble(payload: string): number {
  let total = 0;
  [...payload.toUpperCase()].forEach((c, i) => {
    let v = charValue(c);
    if (i % 2 === 1) v *= 2;
    total += Math.floor(v / 10) + (v % 10);
  });
  return (10 - (total % 10)) % 10;
}

/** Check digit a CUSIP's first 8 characters call for. */
export const cusipCheckDigit = (first8: string): number => doubleAddDouble(first8.slice(0, 8));

/** Result of validating one identifier: ok, or why not. */
export type IdCheck = { ok: true } | { ok: false; reason: string };

export function checkIsin(id: string): IdCheck {
  const s = id.trim().toUpperCase();
  if (!ISIN_SHAPE.test(s)) return { ok: false, reason: `"${id}" is not shaped like an ISIN (2 letters, 9 letters/digits, 1 digit)` };
  const want = isinCheckDigit(s.slice(0, 11));
  return Number(s[11]) === want ? { ok: true } : { ok: false, reason: `ISIN check digit ${s[11]} should be ${want}` };
}

export function checkCusip(id: string): IdCheck {
  const s = id.trim().toUpperCase();
  if (!CUSIP_SHAPE.test(s)) return { ok: false, reason: `"${id}" is not shaped like a CUSIP (8 characters, 1 digit)` };
  const want = cusipCheckDigit(s.slice(0, 8));
  return Number(s[8]) === want ? { ok: true } : { ok: false, reason: `CUSIP check digit ${s[8]} should be ${want}` };
}

export function checkFigi(id: string): IdCheck {
  const s = id.trim().toUpperCase();
  if (!FIGI_SHAPE.test(s)) return { ok: false, reason: `"${id}" is not shaped like a FIGI` };
  const want = doubleAddDouble(s.slice(0, 11));
  return Number(s[11]) === want ? { ok: true } : { ok: false, reason: `FIGI check digit ${s[11]} should be ${want}` };
}

export const isValidIsin = (id: string) => checkIsin(id).ok;
export const isValidCusip = (id: string) => checkCusip(id).ok;
export const isValidFigi = (id: string) => checkFigi(id).ok;

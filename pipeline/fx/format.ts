/**
 * FX rates in messages and sheets without float noise: a rate computed as a cross or an inverse
 * (11.2805 / 1.0875 = 10.372873563218391) is shown with at most 12 significant digits and no
 * trailing zeros (10.3728735632), a delivered rate as delivered (132.19281304).
 */

const RATE = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 12, useGrouping: false });

/** A rate as text (see the module's description); '' for a missing or non-finite rate. */
export function fmtRate(x: number | null | undefined): string {
  return typeof x === 'number' && Number.isFinite(x) ? RATE.format(x) : '';
}

/** A rate rounded to 12 significant digits as a number, for cells (null stays null). */
export function cleanRate(x: number | null | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? Number(x.toPrecision(12)) : null;
}

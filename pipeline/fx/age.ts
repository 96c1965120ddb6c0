/**
 * The age of an FX rate against a period end (docs/decisions/0021-fx-rates.md, "Age of rates").
 * A rate is used for a conclusion only when it is dated on or before the period end and at most
 * `maxBusinessDays` business days before it (default 5). Business days are Monday to Friday (the
 * ISO 8601 working week), with no holiday calendar; the age counts the business days after the
 * rate's date up to the last business day on or before the period end, so a Friday rate is 0 days
 * old for a period end on the Saturday or Sunday after it, and 1 day old for the Monday.
 * Dates are ISO `YYYY-MM-DD`; date arithmetic with date-fns.
 */
import { differenceInBusinessDays, differenceInCalendarDays, isWeekend, parseISO, previousFriday } from 'date-fns';

/** Default limit of a rate's age in business days (setting `fxMaxAgeBusinessDays`). */
export const DEFAULT_FX_MAX_AGE_BUSINESS_DAYS = 5;

const day = (iso: string) => parseISO(iso);

/** The last business day (Mon-Fri) on or before an ISO date, as an ISO date. */
export function lastBusinessDay(iso: string): string {
  const d = day(iso);
  if (!isWeekend(d)) return iso;
  const f = previousFriday(d);
  return `${f.getFullYear()}-${String(f.getMonth() + 1).padStart(2, '0')}-${String(f.getDate()).padStart(2, '0')}`;
}

/** Calendar days from `from` to `to` (positive when `from` is earlier). */
export function calendarDaysBetween(from: string, to: string): number {
  return differenceInCalendarDays(day(to), day(from));
}

/**
 * Business days a rate dated `rateDate` is older than `periodEnd` (see the module's description);
 * negative when the rate is dated after the last business day on or before the period end.
 */
export function businessDaysBefore(rateDate: string, periodEnd: string): number {
  return differenceInBusinessDays(day(lastBusinessDay(periodEnd)), day(rateDate));
}

/** How old a rate is, and whether it may be used. */
export interface RateAge {
  /** Calendar days before the period end. */
  days: number;
  /** Business days before the period end (see `businessDaysBefore`). */
  businessDays: number;
  /** The limit applied, in business days. */
  maxBusinessDays: number;
  /** Dated after the period end, or more than `maxBusinessDays` business days before it: never used for a conclusion. */
  tooOld: boolean;
  /** Dated after the period end. */
  afterPeriodEnd: boolean;
}

/** The age of a rate dated `rateDate` against `periodEnd`, with the limit `maxBusinessDays`. */
export function rateAge(rateDate: string, periodEnd: string, maxBusinessDays = DEFAULT_FX_MAX_AGE_BUSINESS_DAYS): RateAge {
  const days = calendarDaysBetween(rateDate, periodEnd);
  const businessDays = businessDaysBefore(rateDate, periodEnd);
  const afterPeriodEnd = rateDate > periodEnd;
  return { days, businessDays, maxBusinessDays, afterPeriodEnd, tooOld: afterPeriodEnd || businessDays > maxBusinessDays };
}

/**
 * The age of a rate in words: `dated 2026-02-18, 10 days before the period end 2026-02-28 (7
 * business days; limit 5)`; `dated 2026-02-27, the last business day before the period end`.
 */
export function describeAge(rateDate: string, periodEnd: string, age: RateAge): string {
  if (age.afterPeriodEnd) return `dated ${rateDate}, after the period end ${periodEnd}`;
  if (age.days === 0) return `dated ${rateDate}, the period end`;
  if (age.businessDays <= 0) return `dated ${rateDate}, the last business day on or before the period end ${periodEnd}`;
  return `dated ${rateDate}, ${age.days} day${age.days === 1 ? '' : 's'} before the period end ${periodEnd} (${age.businessDays} business day${age.businessDays === 1 ? '' : 's'}; limit ${age.maxBusinessDays})`;
}

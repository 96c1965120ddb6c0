/**
 * Name and value rules of section 5 (both documents): TPA and custom mapping names, client names,
 * the reason for a mapping, materiality values and the required fields of a fund.
 */
import { MESSAGES } from './messages.js';

/** TPA / custom mapping name: lowercase letters, digits and underscore, 1 to 50 characters. */
export const NAME_RULE = /^[a-z0-9_]{1,50}$/;
/** Client name of a custom mapping: letters, digits, underscore and spaces, 1 to 300 characters. */
export const CLIENT_RULE = /^[A-Za-z0-9_ ]{1,300}$/;
/** Longest reason for creating a mapping (characters). */
export const REASON_MAX = 50;
/** Largest materiality value (PM, TE, SAD, RTT+/-), in percent. */
export const MATERIALITY_MAX = 100;

/** The spec's message when a TPA or custom mapping name breaks the rule, else null. */
export function mappingNameError(name: string): string | null {
  return NAME_RULE.test(name) ? null : MESSAGES.invalidName;
}

/** The spec's message when a client name breaks the rule, else null (an empty client name is allowed). */
export function clientNameError(clientName: string | null | undefined): string | null {
  return !clientName || CLIENT_RULE.test(clientName) ? null : MESSAGES.invalidClientName;
}

/** The message when a reason is missing or longer than 50 characters, else null. */
export function reasonError(reason: string | null | undefined): string | null {
  return reason?.trim() && reason.length <= REASON_MAX ? null : MESSAGES.reasonRequired;
}

/** A materiality value capped at 100 on entry (null stays null). */
export function capMateriality(value: number | null): number | null {
  return value === null ? null : Math.min(value, MATERIALITY_MAX);
}

/** Fields a fund needs on save; administrator, fund code, client and name only when creating. */
export function requiredFundFields(creating: boolean): string[] {
  const always = ['period_end', 'currency', 'request_date', 'country', 'PM', 'TE', 'SAD'];
  return creating ? ['administrator', 'fund_code', 'client', 'name', ...always] : always;
}

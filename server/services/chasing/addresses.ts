/**
 * E-mail addresses and time zones of contacts. An address is parsed by RFC 5322's addr-spec
 * grammar (`email-addresses`, with RFC 6532's UTF-8 allowed), must be a single mailbox (no group,
 * no display name, no comment) and have a dotted domain (mail is sent over the Internet: a bare
 * host name such as `localhost` reaches no one). A time zone is an IANA name the runtime knows.
 */
import emailAddresses from 'email-addresses';

/** Longest address accepted (RFC 5321 4.5.3.1.3: a path is at most 256 octets, 254 for the address). */
export const EMAIL_MAX = 254;

/**
 * Why an address is not one we can mail, or null when it is.
 * @param value the address as typed (surrounding spaces are ignored)
 * @returns a sentence for the field error, e.g. "'jane@' is not an e-mail address (RFC 5322)"
 */
export function emailProblem(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return 'The e-mail address is required';
  if (v.length > EMAIL_MAX) return `The e-mail address is longer than ${EMAIL_MAX} characters`;
  const parsed = emailAddresses.parseOneAddress({ input: v, rfc6532: true, rejectTLD: false });
  if (!parsed || parsed.type !== 'mailbox') return `'${v}' is not an e-mail address (RFC 5322)`;
  if (parsed.name || parsed.parts.comments.length || parsed.parts.address.tokens.trim() !== v)
    return `'${v}' is not a bare e-mail address: give only the address, e.g. jane.doe@example.com`;
  if (!parsed.domain.includes('.') || parsed.domain.endsWith('.')) return `'${v}' has no Internet domain after the @ (e.g. example.com)`;
  return null;
}

/**
 * The person's name in a free-text contact field (such as the bulk upload's
 * `fundAdministratorContact`): the display name of `Jane Doe <jane.doe@example.com>`, nothing for
 * a bare address (an address is not a name, and none is made up from it), else the text itself.
 * @returns the name, trimmed; '' when there is none
 */
export function contactNameOf(value: string | null | undefined): string {
  const v = (value ?? '').trim();
  if (!v) return '';
  const parsed = emailAddresses.parseOneAddress({ input: v, rfc6532: true, rejectTLD: false });
  if (parsed && parsed.type === 'mailbox') return parsed.name?.trim() ?? '';
  return v.includes('@') && !/\s/.test(v) ? '' : v;
}

/** The address to compare and store: trimmed, the domain lower-cased (domains are case-insensitive; local parts are kept). */
export function normalizeEmail(value: string): string {
  const v = value.trim();
  const at = v.lastIndexOf('@');
  return at < 0 ? v : `${v.slice(0, at)}@${v.slice(at + 1).toLowerCase()}`;
}

/** The key two addresses are the same person by (case-insensitive as mail systems treat them). */
export const emailKey = (value: string) => value.trim().toLowerCase();

/** Whether the runtime knows an IANA time zone name (e.g. Europe/Luxembourg). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

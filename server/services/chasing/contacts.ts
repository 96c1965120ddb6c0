/**
 * Contacts of TPAs and clients (docs/chasing.md "Recipients"): name, e-mail, role (data or
 * escalation) and time zone, kept per TPA (administrator) or per client (the fund requests' client
 * name). Managed in the delivery area, the API and `fund-audit contacts`, and filled from the bulk
 * upload's TPA mailbox columns. Every change is in the audit log.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, asc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { CONTACT_ROLES, type ContactRole } from '../../../rules/chasing.js';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { ConflictError, NotFoundError, ValidationError, type ErrorItem } from '../../errors.js';
import { recordAudit, type AuditActor } from '../audit/audit-log.js';
import { contactNameOf, emailKey, emailProblem, isTimeZone, normalizeEmail } from './addresses.js';

/** Longest contact name and client name (characters). */
export const CONTACT_NAME_MAX = 300;

/** A contact as the API, the CLI and the UI show it (the spec's snake_case on the wire). */
export interface ContactView {
  id: number;
  administratorId: number | null;
  administratorCode: string | null;
  administratorName: string | null;
  client: string | null;
  full_name: string;
  email: string;
  role: ContactRole;
  time_zone: string | null;
  source: string;
  updated_at: string;
}

/** What a contact is written from: a TPA (id or code) or a client, and the person. */
export interface ContactInput {
  administratorId?: number | null;
  administratorCode?: string | null;
  client?: string | null;
  full_name?: string | null;
  email?: string | null;
  role?: string | null;
  time_zone?: string | null;
}

type ContactRow = ReturnType<typeof storeOf>['tables']['contacts']['$inferSelect'];

async function viewsOf(ctx: AppContext, rows: ContactRow[]): Promise<ContactView[]> {
  const { db, tables: t } = storeOf(ctx);
  const admins = new Map((await db.select().from(t.administrators)).map((a) => [a.id, a]));
  return rows.map((r) => ({
    id: r.id,
    administratorId: r.administratorId,
    administratorCode: r.administratorId ? (admins.get(r.administratorId)?.code ?? null) : null,
    administratorName: r.administratorId ? (admins.get(r.administratorId)?.name ?? null) : null,
    client: r.client,
    full_name: r.fullName,
    email: r.email,
    role: r.role,
    time_zone: r.timeZone,
    source: r.source,
    updated_at: r.updatedAt,
  }));
}

/** The TPA id a code or id names. @throws NotFoundError for an unknown one */
async function administratorIdOf(ctx: AppContext, input: { administratorId?: number | null; administratorCode?: string | null }): Promise<number | null> {
  const { db, tables: t } = storeOf(ctx);
  if (input.administratorId) {
    const [a] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.id, input.administratorId));
    if (!a) throw new NotFoundError(`No TPA with id: ${input.administratorId}`);
    return a.id;
  }
  if (input.administratorCode) {
    const [a] = await db.select({ id: t.administrators.id }).from(t.administrators).where(eq(t.administrators.code, input.administratorCode.trim()));
    if (!a) throw new NotFoundError(`No TPA with code: ${input.administratorCode}`);
    return a.id;
  }
  return null;
}

/**
 * Lists contacts, TPA contacts first (by TPA, role, name), then client contacts.
 * @param filter.administratorId / administratorCode one TPA's; `client` one client's (exact name)
 */
export async function listContacts(
  ctx: AppContext,
  filter: { administratorId?: number; administratorCode?: string; client?: string } = {},
): Promise<ContactView[]> {
  const { db, tables: t } = storeOf(ctx);
  const where: SQL[] = [];
  const adminId = await administratorIdOf(ctx, filter);
  if (adminId) where.push(eq(t.contacts.administratorId, adminId));
  if (filter.client) where.push(eq(t.contacts.client, filter.client.trim()));
  const rows = await db
    .select()
    .from(t.contacts)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(t.contacts.administratorId), asc(t.contacts.client), asc(t.contacts.role), asc(t.contacts.fullName), asc(t.contacts.id));
  return viewsOf(ctx, rows);
}

/** Who contacts belong to, as the delivery team's Contacts screen lists them. */
export interface ContactOwners {
  /** Every TPA, by name, with how many contacts it has and whether it has its own reminder schedule. */
  administrators: Array<{ id: number; code: string; name: string; contacts: number; ownSchedule: boolean }>;
  /** Every client of a fund request that is not deleted, and every client with contacts, by name. */
  clients: Array<{ name: string; funds: number; contacts: number }>;
}

/** The TPAs and clients contacts can be kept for, with their contact counts. */
export async function contactOwners(ctx: AppContext): Promise<ContactOwners> {
  const { db, tables: t } = storeOf(ctx);
  const contacts = await db.select({ administratorId: t.contacts.administratorId, client: t.contacts.client }).from(t.contacts);
  const own = new Set((await db.select({ id: t.chaseSchedules.administratorId }).from(t.chaseSchedules)).map((r) => r.id));
  const byAdmin = new Map<number, number>();
  const byClient = new Map<string, { name: string; funds: number; contacts: number }>();
  for (const c of contacts) {
    if (c.administratorId) byAdmin.set(c.administratorId, (byAdmin.get(c.administratorId) ?? 0) + 1);
    else if (c.client) {
      const entry = byClient.get(c.client.toLowerCase()) ?? { name: c.client, funds: 0, contacts: 0 };
      entry.contacts++;
      byClient.set(c.client.toLowerCase(), entry);
    }
  }
  const funds = await db
    .select({ client: t.fundRequests.client, n: sql<number>`count(*)` })
    .from(t.fundRequests)
    .where(ne(t.fundRequests.status, 'Deleted'))
    .groupBy(t.fundRequests.client);
  for (const f of funds) {
    if (!f.client?.trim()) continue;
    const entry = byClient.get(f.client.toLowerCase()) ?? { name: f.client, funds: 0, contacts: 0 };
    entry.funds += Number(f.n);
    byClient.set(f.client.toLowerCase(), entry);
  }
  const admins = await db.select().from(t.administrators).orderBy(asc(t.administrators.name));
  return {
    administrators: admins.map((a) => ({ id: a.id, code: a.code, name: a.name, contacts: byAdmin.get(a.id) ?? 0, ownSchedule: own.has(a.id) })),
    clients: Array.from(byClient, ([, c]) => c).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The fields of a contact, checked: every problem as a field error (`column` names the field). */
function checkContact(input: ContactInput, administratorId: number | null) {
  const errors: ErrorItem[] = [];
  const client = input.client?.trim() || null;
  if (!administratorId && !client) errors.push({ column: 'administrator', message: 'Choose the TPA or the client the contact belongs to' });
  if (administratorId && client) errors.push({ column: 'client', message: 'A contact belongs to a TPA or to a client, not both' });
  if (client && client.length > CONTACT_NAME_MAX) errors.push({ column: 'client', message: `The client name is longer than ${CONTACT_NAME_MAX} characters` });
  const fullName = input.full_name?.trim() ?? '';
  if (fullName.length > CONTACT_NAME_MAX) errors.push({ column: 'full_name', message: `The name is longer than ${CONTACT_NAME_MAX} characters` });
  const emailError = emailProblem(input.email);
  if (emailError) errors.push({ column: 'email', message: emailError });
  const role = (input.role?.trim().toLowerCase() || 'data') as ContactRole;
  if (!CONTACT_ROLES.includes(role)) errors.push({ column: 'role', message: `The role must be one of ${CONTACT_ROLES.join(', ')} (got '${input.role}')` });
  const timeZone = input.time_zone?.trim() || null;
  if (timeZone && !isTimeZone(timeZone))
    errors.push({ column: 'time_zone', message: `'${timeZone}' is not a time zone (use an IANA name such as Europe/Luxembourg)` });
  if (errors.length) throw new ValidationError(typeof errors[0] === 'string' ? errors[0] : errors[0]!.message, errors);
  return { administratorId, client, fullName, email: normalizeEmail(input.email!), role, timeZone };
}

/** A contact of the same TPA or client with the same address and role. */
async function sameContact(ctx: AppContext, c: { administratorId: number | null; client: string | null; email: string; role: ContactRole }, except?: number) {
  const { db, tables: t } = storeOf(ctx);
  const scope = c.administratorId
    ? eq(t.contacts.administratorId, c.administratorId)
    : and(isNull(t.contacts.administratorId), eq(t.contacts.client, c.client!));
  const rows = await db
    .select()
    .from(t.contacts)
    .where(and(scope, eq(t.contacts.role, c.role)));
  return rows.find((r) => r.id !== except && emailKey(r.email) === emailKey(c.email));
}

/**
 * Adds a contact to a TPA or a client.
 * @throws ValidationError with one field error per problem (column: administrator, client,
 *   full_name, email, role, time_zone); ConflictError when the same address already has that role there
 */
export async function createContact(ctx: AppContext, actor: AuditActor | null, input: ContactInput, source = 'manual'): Promise<ContactView> {
  const fields = checkContact(input, await administratorIdOf(ctx, input));
  const row = await transaction(ctx, async () => {
    if (await sameContact(ctx, fields)) throw new ConflictError(`${fields.email} is already a ${fields.role} contact there`);
    const { db, tables: t } = storeOf(ctx);
    const [inserted] = await db
      .insert(t.contacts)
      .values({ ...fields, source, createdById: actor?.id ?? null })
      .returning();
    return inserted!;
  });
  await recordAudit(ctx, actor, 'contact-changed', `contact:${row.id}`, {
    change: 'created',
    email: row.email,
    role: row.role,
    administratorId: row.administratorId,
    client: row.client,
  });
  return (await viewsOf(ctx, [row]))[0]!;
}

/**
 * Changes a contact (only the fields given; the TPA or client it belongs to stays).
 * @throws NotFoundError for an unknown id; ValidationError / ConflictError as `createContact`
 */
export async function updateContact(ctx: AppContext, actor: AuditActor | null, id: number, input: ContactInput): Promise<ContactView> {
  const { db, tables: t } = storeOf(ctx);
  const [old] = await db.select().from(t.contacts).where(eq(t.contacts.id, id));
  if (!old) throw new NotFoundError(`No contact with id: ${id}`);
  const fields = checkContact(
    {
      client: old.client,
      full_name: input.full_name ?? old.fullName,
      email: input.email ?? old.email,
      role: input.role ?? old.role,
      time_zone: input.time_zone === undefined ? old.timeZone : input.time_zone,
    },
    old.administratorId,
  );
  const row = await transaction(ctx, async () => {
    if (await sameContact(ctx, fields, id)) throw new ConflictError(`${fields.email} is already a ${fields.role} contact there`);
    const [updated] = await storeOf(ctx)
      .db.update(t.contacts)
      .set({ fullName: fields.fullName, email: fields.email, role: fields.role, timeZone: fields.timeZone, updatedAt: new Date().toISOString() })
      .where(eq(t.contacts.id, id))
      .returning();
    return updated!;
  });
  await recordAudit(ctx, actor, 'contact-changed', `contact:${id}`, {
    change: 'updated',
    before: { full_name: old.fullName, email: old.email, role: old.role, time_zone: old.timeZone },
    after: { full_name: row.fullName, email: row.email, role: row.role, time_zone: row.timeZone },
  });
  return (await viewsOf(ctx, [row]))[0]!;
}

/** Removes a contact. @throws NotFoundError for an unknown id */
export async function deleteContact(ctx: AppContext, actor: AuditActor | null, id: number): Promise<{ id: number }> {
  const { db, tables: t } = storeOf(ctx);
  const [old] = await db.delete(t.contacts).where(eq(t.contacts.id, id)).returning();
  if (!old) throw new NotFoundError(`No contact with id: ${id}`);
  await recordAudit(ctx, actor, 'contact-changed', `contact:${id}`, {
    change: 'deleted',
    email: old.email,
    role: old.role,
    administratorId: old.administratorId,
    client: old.client,
  });
  return { id };
}

/**
 * Adds the TPA mailboxes of saved bulk-upload rows (template columns `tpaMailBox` and
 * `taTPAMailbox`) as data contacts of the row's TPA, unless the TPA already has that address.
 * The first is named after `fundAdministratorContact` when that holds a name (`Jane Doe` or
 * `Jane Doe <jane@tpa.com>`); a bare address there gives no name (`contactNameOf`). Addresses
 * that do not parse are skipped (the row itself reports them).
 * @returns how many contacts were added
 */
export async function importBulkContacts(
  ctx: AppContext,
  actor: AuditActor | null,
  rows: Array<{ tpa?: string | null; tpaMailBox?: string | null; taTPAMailbox?: string | null; fundAdministratorContact?: string | null }>,
): Promise<number> {
  const { db, tables: t } = storeOf(ctx);
  const adminIds = new Map(
    (await db.select({ id: t.administrators.id, code: t.administrators.code }).from(t.administrators)).map((a) => [a.code.toLowerCase(), a.id]),
  );
  const wanted = new Map<string, { administratorId: number; email: string; fullName: string }>();
  for (const r of rows) {
    const administratorId = r.tpa ? adminIds.get(r.tpa.trim().toLowerCase()) : undefined;
    if (!administratorId) continue;
    for (const address of [r.tpaMailBox, r.taTPAMailbox]) {
      if (!address || emailProblem(address)) continue;
      const email = normalizeEmail(address);
      const key = `${administratorId} ${emailKey(email)}`;
      if (!wanted.has(key)) wanted.set(key, { administratorId, email, fullName: address === r.tpaMailBox ? contactNameOf(r.fundAdministratorContact) : '' });
    }
  }
  if (!wanted.size) return 0;
  const known = new Set(
    (await db.select({ administratorId: t.contacts.administratorId, email: t.contacts.email }).from(t.contacts)).map(
      (c) => `${c.administratorId} ${emailKey(c.email)}`,
    ),
  );
  const added = [...wanted.entries()].filter(([key]) => !known.has(key)).map(([, c]) => c);
  if (!added.length) return 0;
  const inserted = await db
    .insert(t.contacts)
    .values(added.map((c) => ({ ...c, role: 'data' as const, source: 'bulk-upload', createdById: actor?.id ?? null })))
    .returning({ id: t.contacts.id });
  await recordAudit(ctx, actor, 'contact-changed', `contacts:${inserted.map((r) => r.id).join(',')}`, {
    change: 'imported from bulk upload',
    emails: added.map((c) => c.email),
  });
  return inserted.length;
}

/**
 * Creating and editing one fund request (`POST /fund/validate`, `POST /fund`; spec section 5
 * "Fund save" and 2.3 edit rules): required fields, reference codes, dates, materialities 0-100,
 * fund codes (empty dropped, main code kept), recipients with a role (a recipient sent without a
 * name gets the name of the user with its e-mail), the 'Duplicate Fund' check,
 * rows editable only while Pending with nothing assigned (comments, recipients and the aggregation
 * link, parentId and group key, always; a changed link reruns the parents' aggregation,
 * `server/services/aggregation/link.ts`), and the administrator lock. Every save writes a trail entry.
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { transaction } from '../../db/tx.js';
import { NotFoundError, ValidationError, type ErrorItem } from '../../errors.js';
import { parseUserDate } from '../../lib/dates.js';
import type { User } from '../auth/tokens.js';
import { referenceIndex, type StaticListName } from '../reference-data/reference-data.js';
import { editability } from './editability.js';
import { parentLinkChanged, parentLinkErrors } from '../aggregation/link.js';
import { COMMENT_FIELDS, FUND_FIELD_COLUMNS, LINK_FIELDS, toFundFields, type FundFieldName, type FundFields } from './fields.js';
import { changeFundRequest, createFundRequest, type FundCodeInput, type RecipientInput } from './fund-store.js';

/** The fund as sent by the screens. */
export interface FundInput extends Record<string, unknown> {
  administrator?: string | { code: string } | null;
  fund_code?: string;
  fund_codes?: Array<{ code?: string | null; main?: boolean }>;
  administrator_recipients?: Array<{ full_name?: string; email?: string; role?: string }>;
}

const REQUIRED_ALWAYS: FundFieldName[] = ['period_end', 'currency', 'request_date', 'country', 'PM', 'TE', 'SAD'];
const DATE_FIELDS: FundFieldName[] = ['period_start', 'period_end', 'due_date', 'audit_start_date', 'nav_close_date', 'request_date'];
const PERCENT_FIELDS: FundFieldName[] = ['PM', 'TE', 'SAD', 'RTTPlus', 'RTTMinus'];
const BOOL_FIELDS: FundFieldName[] = ['connected_audit', 'has_investment_analyzer', 'group_work_papers', 'is_parent'];
const REF_FIELDS: Array<[FundFieldName, StaticListName]> = [
  ['country', 'countries'],
  ['ey_country', 'countries'],
  ['currency', 'currencies'],
  ['structure', 'structures'],
  ['fund_sub_type', 'fundSubType'],
  ['audit_type', 'auditTypes'],
  ['job_type', 'jobType'],
  ['accounting_standard', 'accountingStandards'],
  ['soi_rec_type', 'soiRecType'],
  ['fihi_type', 'fihiType'],
  ['aggreg_consol_flag', 'aggregateType'],
  ['price_type_1', 'priceType'],
  ['price_type_2', 'priceType'],
  ['price_type_3', 'priceType'],
  ['price_type_4', 'priceType'],
  ['price_source_1', 'priceSource'],
  ['price_source_2', 'priceSource'],
  ['price_source_3', 'priceSource'],
];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Prepared {
  errors: ErrorItem[];
  fields: FundFields;
  codes: FundCodeInput[];
  recipients?: RecipientInput[];
  administratorId?: number | null;
}

const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The name of the Fund Audit user with an e-mail ('' when none): a recipient sent without a name gets it. */
async function userNameOf(ctx: AppContext, email: string): Promise<string> {
  if (!email) return '';
  const { db, tables: t } = storeOf(ctx);
  const [u] = await db.select({ firstName: t.users.firstName, lastName: t.users.lastName }).from(t.users).where(eq(t.users.email, email)).limit(1);
  return u ? `${u.firstName} ${u.lastName}`.trim() : '';
}

/** Normalises and checks the input; collects every problem rather than stopping at the first. */
async function prepare(ctx: AppContext, input: FundInput, existing: ReturnType<typeof toFundFields> | null): Promise<Prepared> {
  const errors: ErrorItem[] = [];
  const fields: Record<string, unknown> = {};
  for (const f of Object.keys(FUND_FIELD_COLUMNS) as FundFieldName[]) if (f in input) fields[f] = empty(input[f]) ? null : input[f];
  const merged = { ...(existing ?? {}), ...fields } as Record<string, unknown>;
  const creating = existing === null;
  if (creating) for (const f of ['client', 'name'] as const) if (empty(merged[f])) errors.push(`${f} is required`);
  for (const f of REQUIRED_ALWAYS) if (empty(merged[f])) errors.push(`${f} is required`);

  for (const f of DATE_FIELDS) {
    if (!(f in fields) || fields[f] === null) continue;
    const iso = parseUserDate(String(fields[f]));
    if (!iso) errors.push(`${f} '${fields[f]}' is not a date`);
    else fields[f] = iso;
  }
  if (merged.period_start && merged.period_end && String(fields.period_start ?? merged.period_start) >= String(fields.period_end ?? merged.period_end)) {
    errors.push('period_start must be before period_end');
  }
  for (const f of PERCENT_FIELDS) {
    if (!(f in fields) || fields[f] === null) continue;
    const n = Number(fields[f]);
    if (!Number.isFinite(n)) errors.push(`${f} must be a number`);
    else if (n < 0 || n > 100) errors.push(`${f} must be between 0 and 100`);
    else fields[f] = n;
  }
  for (const f of BOOL_FIELDS)
    if (f in fields && fields[f] !== null) fields[f] = fields[f] === true || fields[f] === 'Y' || fields[f] === 'yes' || fields[f] === 1;
  if ('parentId' in fields && fields.parentId !== null) {
    const n = Number(fields.parentId);
    if (!Number.isInteger(n) || n <= 0) errors.push(`parentId '${fields.parentId}' is not a fund request id`);
    else fields.parentId = n;
  }
  if ('external_valuations' in fields) {
    const v = String(fields.external_valuations ?? 'N').toUpperCase();
    if (v !== 'Y' && v !== 'N') errors.push('external_valuations must be Y or N');
    fields.external_valuations = v === 'Y' ? 'Y' : 'N';
  }
  const ref = await referenceIndex(ctx);
  for (const [f, list] of REF_FIELDS) {
    if (!(f in fields) || fields[f] === null) continue;
    const code = ref[list].get(String(fields[f]).toLowerCase());
    if (!code) errors.push(`${f} '${fields[f]}' is not a known code`);
    else fields[f] = code;
  }

  // fund codes: drop empties, exactly one main, main code cannot be removed
  let codes: FundCodeInput[] = [];
  if (input.fund_codes || input.fund_code) {
    const list = (input.fund_codes ?? []).filter((c) => !empty(c.code)).map((c) => ({ code: String(c.code).trim(), main: !!c.main }));
    if (input.fund_code && !list.some((c) => c.code === input.fund_code)) list.unshift({ code: String(input.fund_code).trim(), main: true });
    if (list.length && !list.some((c) => c.main)) list[0].main = true;
    if (list.filter((c) => c.main).length > 1) errors.push('Only one fund code can be the main code');
    const seen = new Set<string>();
    codes = list.filter((c) => (seen.has(c.code.toLowerCase()) ? false : (seen.add(c.code.toLowerCase()), true)));
  }
  if (creating && !codes.length) errors.push('fund_code is required');

  let recipientsOut: RecipientInput[] | undefined;
  if (input.administrator_recipients) {
    recipientsOut = [];
    for (const [i, r] of input.administrator_recipients.entries()) {
      if (empty(r.role)) errors.push(`Recipient ${i + 1} (${r.email ?? r.full_name ?? 'new'}) needs a role`);
      else if (!ref.roles.get(String(r.role).toLowerCase())) errors.push(`Recipient ${i + 1}: role '${r.role}' is not known`);
      if (empty(r.email) || !EMAIL.test(String(r.email))) errors.push(`Recipient ${i + 1}: '${r.email ?? ''}' is not an e-mail address`);
      const email = String(r.email ?? '')
        .trim()
        .toLowerCase();
      recipientsOut!.push({
        full_name: empty(r.full_name) ? await userNameOf(ctx, email) : String(r.full_name).trim(),
        email,
        role: ref.roles.get(String(r.role ?? '').toLowerCase()) ?? String(r.role ?? ''),
      });
    }
  }

  let administratorId: number | null | undefined;
  if ('administrator' in input) {
    const code = typeof input.administrator === 'string' ? input.administrator : input.administrator?.code;
    if (empty(code)) administratorId = null;
    else {
      const { db, tables: t } = storeOf(ctx);
      const [admin] = await db
        .select()
        .from(t.administrators)
        .where(eq(t.administrators.code, String(code)))
        .limit(1);
      if (!admin) errors.push(`administrator '${code}' does not exist`);
      administratorId = admin?.id ?? null;
    }
  }
  if (creating && !administratorId) errors.push('administrator is required');
  return { errors, fields: fields as FundFields, codes, recipients: recipientsOut, administratorId };
}

/** 'Duplicate Fund' errors: another live request with the same administrator, a shared code and period end. */
async function duplicates(
  ctx: AppContext,
  id: number | null,
  administratorId: number | null | undefined,
  periodEnd: unknown,
  codes: string[],
): Promise<ErrorItem[]> {
  if (!administratorId || !periodEnd || !codes.length) return [];
  const { db, tables: t } = storeOf(ctx);
  const { fundCodes, fundRequests } = t;
  const rows = await db
    .select({ id: fundRequests.id, code: fundCodes.code })
    .from(fundCodes)
    .innerJoin(fundRequests, eq(fundCodes.fundRequestId, fundRequests.id))
    .where(
      and(
        eq(fundRequests.administratorId, administratorId),
        eq(fundRequests.periodEnd, String(periodEnd)),
        inArray(fundCodes.code, codes),
        ne(fundRequests.status, 'Deleted'),
      ),
    )
    .orderBy(fundCodes.id);
  return rows
    .filter((r) => r.id !== id)
    .map((r) => ({ id: r.id, type: 'Duplicate Fund', message: `Fund request ${r.id} already has fund code ${r.code} for period end ${periodEnd}` }));
}

async function load(ctx: AppContext, id: number) {
  const { db, tables: t } = storeOf(ctx);
  const [row] = await db.select().from(t.fundRequests).where(eq(t.fundRequests.id, id));
  if (!row) throw new NotFoundError(`No such fund request with id: ${id}`);
  return row;
}

/**
 * Validates a create (no id) or an update; returns every error found (empty when valid).
 * @throws NotFoundError for an unknown id
 */
export async function validateFund(ctx: AppContext, input: { id?: number | null; fund: FundInput }): Promise<ErrorItem[]> {
  return (await check(ctx, input)).errors;
}

async function check(ctx: AppContext, input: { id?: number | null; fund: FundInput }) {
  const { db, tables: t } = storeOf(ctx);
  const row = input.id ? await load(ctx, input.id) : null;
  const existing = row ? toFundFields(row) : null;
  const p = await prepare(ctx, input.fund, existing);
  const codesOf = (id: number) => db.select().from(t.fundCodes).where(eq(t.fundCodes.fundRequestId, id)).orderBy(t.fundCodes.id);
  if (row) {
    const edit = await editability(ctx, row);
    const changed = (Object.keys(p.fields) as FundFieldName[]).filter(
      (f) => !COMMENT_FIELDS.includes(f) && !LINK_FIELDS.includes(f) && JSON.stringify(p.fields[f] ?? null) !== JSON.stringify(existing![f] ?? null),
    );
    const currentCodes = await codesOf(row.id);
    const codesChanged =
      p.codes.length > 0 && JSON.stringify(p.codes.map((c) => [c.code, c.main]).sort()) !== JSON.stringify(currentCodes.map((c) => [c.code, c.main]).sort());
    if (!edit.rowsEditable && (changed.length || codesChanged || (p.administratorId !== undefined && p.administratorId !== row.administratorId))) {
      p.errors.push(
        `Only comments and recipients can be changed because ${edit.reason} (changed: ${[...changed, ...(codesChanged ? ['fund_codes'] : [])].join(', ') || 'administrator'})`,
      );
    }
    if (p.administratorId !== undefined && p.administratorId !== row.administratorId && edit.administratorLock) {
      p.errors.push(`The administrator cannot be changed: ${edit.administratorLock}`);
    }
    const main = currentCodes.find((c) => c.main);
    if (main && p.codes.length && !p.codes.some((c) => c.code === main.code && c.main)) p.errors.push(`The main fund code ${main.code} cannot be removed`);
  }
  const parentId = p.fields.parentId;
  if (typeof parentId === 'number' && parentId !== (existing?.parentId ?? null)) p.errors.push(...(await parentLinkErrors(ctx, row?.id ?? null, parentId)));
  const adminId = p.administratorId !== undefined ? p.administratorId : row?.administratorId;
  const periodEnd = p.fields.period_end ?? existing?.period_end;
  const codeList = p.codes.length ? p.codes.map((c) => c.code) : row ? (await codesOf(row.id)).map((c) => c.code) : [];
  p.errors.push(...(await duplicates(ctx, row?.id ?? null, adminId, periodEnd, codeList)));
  return { ...p, row, existing };
}

/**
 * Saves a fund request (create without id, update with id).
 * @returns the fund request id
 * @throws ValidationError 'You have validation errors' with every error; NotFoundError for an unknown id
 */
export async function saveFund(ctx: AppContext, user: User, input: { id?: number | null; fund: FundInput }): Promise<number> {
  const c = await check(ctx, input);
  if (c.errors.length) throw new ValidationError('You have validation errors', c.errors);
  const parentBefore = c.existing?.parentId ?? null;
  const parentAfter = 'parentId' in c.fields ? (c.fields.parentId ?? null) : parentBefore;
  const id = await transaction(ctx, async () => {
    const saved = c.row
      ? await changeFundRequest(ctx, c.row.id, {
          administratorId: c.administratorId,
          fields: c.fields,
          codes: c.codes,
          recipients: c.recipients,
          userId: user.id,
          action: 'update',
          before: c.existing,
        }).then(() => c.row!.id)
      : await createFundRequest(ctx, {
          administratorId: c.administratorId ?? null,
          fields: c.fields,
          codes: c.codes,
          recipients: c.recipients,
          userId: user.id,
          action: 'create',
        });
    // a new or changed parent link marks the parent and reruns the parents' aggregation
    await parentLinkChanged(ctx, user.id, saved, parentBefore, parentAfter);
    return saved;
  });
  const parents = parentBefore === parentAfter ? [] : [parentBefore, parentAfter].filter((x): x is number => x !== null);
  ctx.events.publish('fund-request', { ids: [id, ...parents], action: c.row ? 'update' : 'create' });
  return id;
}

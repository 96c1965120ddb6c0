import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { ConflictError, ValidationError } from '../../errors.js';
import { createTestContext, errorOf, type TestContext } from '../../testing/context.js';
import { listAuditLog } from '../audit/audit-log.js';
import { insertAdministrator } from '../../testing/fund-factory.js';
import { contactNameOf, emailProblem } from './addresses.js';
import { createContact, deleteContact, importBulkContacts, listContacts, updateContact } from './contacts.js';

describe('contact addresses (RFC 5322)', () => {
  it.each([
    ['jane.doe@example.com', null],
    ['"jane doe"@example.com', null],
    ['jane@', "'jane@' is not an e-mail address (RFC 5322)"],
    ['jane doe@example.com', "'jane doe@example.com' is not an e-mail address (RFC 5322)"],
    ['Jane <jane@example.com>', "'Jane <jane@example.com>' is not a bare e-mail address: give only the address, e.g. jane.doe@example.com"],
    ['jane@localhost', "'jane@localhost' has no Internet domain after the @ (e.g. example.com)"],
    ['', 'The e-mail address is required'],
  ])('%s', (address, problem) => expect(emailProblem(address)).toBe(problem));
});

describe('contact names from free text', () => {
  it.each([
    ['Jane Doe', 'Jane Doe'],
    ['Jane Doe <jane.doe@tpa.example.com>', 'Jane Doe'],
    ['"Doe, Jane" <jane.doe@tpa.example.com>', 'Doe, Jane'],
    // an address is not a name: none is made up from it
    ['meridian.fund.admin@example.com', ''],
    ['<desk@tpa.example.com>', ''],
    ['  ', ''],
    [null, ''],
  ])('%s', (value, name) => expect(contactNameOf(value)).toBe(name));
});

describeEachDialect('contacts', (dialect) => {
  let ctx: TestContext;
  let admin: number;
  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: false });
    admin = await insertAdministrator(ctx, 'contacts_tpa');
  });
  afterAll(() => ctx.dispose());

  it('adds, changes and removes a TPA contact, each change in the audit log', async () => {
    const c = await createContact(
      ctx,
      { id: 1, email: 'admin@fund-audit.local' },
      { administratorCode: 'contacts_tpa', full_name: 'Ana Ops', email: 'ana@TPA.example.com', role: 'data', time_zone: 'Europe/Luxembourg' },
    );
    expect(c).toMatchObject({ administratorCode: 'contacts_tpa', email: 'ana@tpa.example.com', role: 'data', time_zone: 'Europe/Luxembourg' });
    const changed = await updateContact(ctx, null, c.id, { role: 'escalation' });
    expect(changed.role).toBe('escalation');
    expect((await listContacts(ctx, { administratorId: admin })).map((x) => x.email)).toEqual(['ana@tpa.example.com']);
    await deleteContact(ctx, null, c.id);
    expect(await listContacts(ctx, { administratorId: admin })).toEqual([]);
    const log = await listAuditLog(ctx);
    expect(log.filter((e) => e.action === 'contact-changed').map((e) => e.details.change)).toEqual(['deleted', 'updated', 'created']);
  });

  it('answers a bad address, a bad role and a bad time zone as field errors', async () => {
    const err = await errorOf<ValidationError>(() =>
      createContact(ctx, null, { administratorId: admin, email: 'ana@', role: 'boss', time_zone: 'Mars/Olympus' }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.errors).toEqual([
      { column: 'email', message: "'ana@' is not an e-mail address (RFC 5322)" },
      { column: 'role', message: "The role must be one of data, escalation (got 'boss')" },
      { column: 'time_zone', message: "'Mars/Olympus' is not a time zone (use an IANA name such as Europe/Luxembourg)" },
    ]);
  });

  it('refuses the same address twice in one role, and keeps client contacts apart', async () => {
    await createContact(ctx, null, { client: 'Alpine AM', email: 'cfo@alpine.example.com', role: 'escalation' });
    expect(await errorOf(() => createContact(ctx, null, { client: 'Alpine AM', email: 'CFO@alpine.example.com', role: 'escalation' }))).toBeInstanceOf(
      ConflictError,
    );
    expect((await listContacts(ctx, { client: 'Alpine AM' })).map((x) => [x.client, x.role])).toEqual([['Alpine AM', 'escalation']]);
  });

  it("takes the bulk upload's TPA mailboxes as data contacts once", async () => {
    const rows = [{ tpa: 'contacts_tpa', tpaMailBox: 'funds@tpa.example.com', taTPAMailbox: 'ta@tpa.example.com', fundAdministratorContact: 'Fund Desk' }];
    expect(await importBulkContacts(ctx, null, rows)).toBe(2);
    expect(await importBulkContacts(ctx, null, [...rows, { tpa: 'contacts_tpa', tpaMailBox: 'not an address' }])).toBe(0);
    // the demo data's fundAdministratorContact is an address: the contact gets no name, not the address as one
    expect(
      await importBulkContacts(ctx, null, [
        { tpa: 'contacts_tpa', tpaMailBox: 'reports@tpa.example.com', fundAdministratorContact: 'fund.admin@tpa.example.com' },
      ]),
    ).toBe(1);
    const list = await listContacts(ctx, { administratorId: admin });
    expect(list.map((c) => [c.full_name, c.email, c.role, c.source])).toEqual([
      ['', 'ta@tpa.example.com', 'data', 'bulk-upload'],
      ['', 'reports@tpa.example.com', 'data', 'bulk-upload'],
      ['Fund Desk', 'funds@tpa.example.com', 'data', 'bulk-upload'],
    ]);
  });
});

/**
 * `fund-audit contacts ...` and `fund-audit chase ...` (docs/chasing.md, docs/cli.md): the contacts
 * of TPAs and clients, a chase run now (`--dry-run` prints what would go out and writes nothing),
 * the outbox, and a TPA's own reminder schedule. On the local install (a data directory, or
 * PostgreSQL with --database-url).
 */
import type { Command } from 'commander';
import type { AppContext } from '../../server/context.js';
import { createContact, deleteContact, listContacts, updateContact } from '../../server/services/chasing/contacts.js';
import { listOutbox, sendDueMails } from '../../server/services/chasing/outbox.js';
import { runChase } from '../../server/services/chasing/run.js';
import { clearTpaSchedule, scheduleOf, setTpaSchedule } from '../../server/services/chasing/schedule.js';
import { administratorByCode } from '../../server/services/imports/imports.js';
import { globals, openLocal, type GlobalOptions } from '../global.js';
import { output, printTable } from '../output.js';

async function withLocal<T>(g: GlobalOptions, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await openLocal(g);
  try {
    return await fn(ctx);
  } finally {
    ctx.close();
  }
}

const contactRow = (c: Awaited<ReturnType<typeof listContacts>>[number]) => ({
  id: c.id,
  of: c.administratorCode ? `TPA ${c.administratorCode}` : `client ${c.client}`,
  name: c.full_name,
  email: c.email,
  role: c.role,
  time_zone: c.time_zone ?? '',
  source: c.source,
});

export function registerChasing(program: Command): void {
  const contacts = program.command('contacts').description('Contacts of TPAs and clients who get the chase mails (role data or escalation)');
  contacts
    .command('list')
    .description('List contacts, of one TPA or client')
    .option('--tpa <code>', 'TPA code')
    .option('--client <name>', 'client name, as on the fund requests')
    .action(async (opts: { tpa?: string; client?: string }, c: Command) => {
      const g = globals(c);
      const list = await withLocal(g, (ctx) => listContacts(ctx, { administratorCode: opts.tpa, client: opts.client }));
      output(list, !!g.json, () => printTable(list.map(contactRow)));
    });
  contacts
    .command('add')
    .description('Add a contact to a TPA (--tpa) or a client (--client)')
    .requiredOption('--email <address>', 'e-mail address (RFC 5322)')
    .option('--tpa <code>', 'TPA code')
    .option('--client <name>', 'client name')
    .option('--name <full name>', "the person's name")
    .option('--role <role>', 'data (every chase) or escalation (later late reminders)', 'data')
    .option('--time-zone <zone>', 'IANA time zone the mails show times in, e.g. Europe/Luxembourg')
    .action(async (opts: { email: string; tpa?: string; client?: string; name?: string; role: string; timeZone?: string }, c: Command) => {
      const g = globals(c);
      const made = await withLocal(g, (ctx) =>
        createContact(ctx, null, {
          administratorCode: opts.tpa,
          client: opts.client,
          full_name: opts.name,
          email: opts.email,
          role: opts.role,
          time_zone: opts.timeZone,
        }),
      );
      output(made, !!g.json, () => process.stdout.write(`Contact ${made.id} added: ${made.email} (${made.role}) of ${contactRow(made).of}\n`));
    });
  contacts
    .command('update')
    .description('Change a contact')
    .argument('<id>', 'contact id (see contacts list)')
    .option('--email <address>', 'e-mail address')
    .option('--name <full name>', 'name')
    .option('--role <role>', 'data or escalation')
    .option('--time-zone <zone>', 'IANA time zone')
    .action(async (id: string, opts: { email?: string; name?: string; role?: string; timeZone?: string }, c: Command) => {
      const g = globals(c);
      const changed = await withLocal(g, (ctx) =>
        updateContact(ctx, null, Number(id), { email: opts.email, full_name: opts.name, role: opts.role, time_zone: opts.timeZone }),
      );
      output(changed, !!g.json, () => process.stdout.write(`Contact ${changed.id} changed: ${changed.email} (${changed.role})\n`));
    });
  contacts
    .command('remove')
    .description('Remove a contact')
    .argument('<id>', 'contact id')
    .action(async (id: string, _opts, c: Command) => {
      const g = globals(c);
      const done = await withLocal(g, (ctx) => deleteContact(ctx, null, Number(id)));
      output(done, !!g.json, () => process.stdout.write(`Contact ${done.id} removed\n`));
    });

  const chase = program
    .command('chase')
    .description('Run chasing now: open, remind and resolve chases, write one digest per recipient, then send the due mails')
    .option('--dry-run', 'decide and print what would be mailed; write and send nothing')
    .option('--today <date>', 'chase as on this day (YYYY-MM-DD; default today, UTC)')
    .option('--no-send', 'write the mails to the outbox but leave sending to the server')
    .action(async (opts: { dryRun?: boolean; today?: string; send: boolean }, c: Command) => {
      const g = globals(c);
      const out = await withLocal(g, async (ctx) => {
        const run = await runChase(ctx, { dryRun: !!opts.dryRun, today: opts.today, trigger: 'cli' });
        const sent = !opts.dryRun && opts.send ? await sendDueMails(ctx) : null;
        return { ...run, outbox: sent };
      });
      output(out, !!g.json, () => {
        const k = out.counts;
        process.stdout.write(
          `${out.dryRun ? 'Dry run: nothing written. ' : ''}Chased as on ${out.asOf}: ${k.funds} fund request(s) looked at, ${k.opened} chase(s) opened, ${k.reminded} reminded, ${k.reopened} re-opened, ${k.resolved} resolved, ${k.cancelled} cancelled; ${out.mails.length} mail(s)${k.withoutRecipients ? `; ${k.withoutRecipients} chase(s) have no contact to mail` : ''}.\n`,
        );
        for (const m of out.mails) process.stdout.write(`  to ${m.to}: ${m.subject} (${m.dueChaseIds.length} due, ${m.chaseIds.length} open)\n`);
        if (out.outbox)
          process.stdout.write(
            out.outbox.held ? `Not sent: ${out.outbox.held}.\n` : `Sent ${out.outbox.sent}, to retry ${out.outbox.retried}, failed ${out.outbox.failed}.\n`,
          );
      });
    });
  chase
    .command('outbox')
    .description('The chase mails, newest first')
    .option('--status <status>', 'pending, sending, sent, failed or cancelled')
    .option('-n, --limit <n>', 'how many (1-1000)', '50')
    .action(async (opts: { status?: string; limit: string }, c: Command) => {
      const g = globals(c);
      const rows = await withLocal(g, (ctx) => listOutbox(ctx, { status: opts.status, limit: Number(opts.limit) || 50 }));
      output(rows, !!g.json, () =>
        printTable(
          rows.map((r) => ({
            id: r.id,
            run: r.runId,
            to: r.to,
            status: r.status,
            attempts: r.attempts,
            sent: r.sentAt ?? '',
            subject: r.subject,
            error: r.lastError ?? '',
          })),
        ),
      );
    });
  chase
    .command('schedule')
    .description("Show or set a TPA's reminder schedule for missing files")
    .argument('<tpa>', 'TPA code')
    .option('--offsets <days>', 'days relative to the due date, e.g. -5,0,5,10')
    .option('--escalate-from <n>', 'late reminder from which escalation contacts get the mail')
    .option('--off', 'do not chase this TPA')
    .option('--on', 'chase this TPA again')
    .option('--reset', "use the install's schedule again")
    .action(async (tpa: string, opts: { offsets?: string; escalateFrom?: string; off?: boolean; on?: boolean; reset?: boolean }, c: Command) => {
      const g = globals(c);
      const s = await withLocal(g, async (ctx) => {
        const admin = await administratorByCode(ctx, tpa);
        if (opts.reset) return clearTpaSchedule(ctx, null, admin.id);
        if (opts.offsets || opts.escalateFrom || opts.off || opts.on) {
          const now = await scheduleOf(ctx, admin.id);
          return setTpaSchedule(ctx, null, admin.id, {
            offsets: opts.offsets ?? now.offsets,
            escalateFrom: opts.escalateFrom ? Number(opts.escalateFrom) : now.escalateFrom,
            enabled: opts.off ? false : opts.on ? true : now.enabled,
          });
        }
        return scheduleOf(ctx, admin.id);
      });
      output(s, !!g.json, () =>
        process.stdout.write(
          `${tpa}: ${s.enabled ? `reminders on days ${s.offsets.join(', ')} of the due date, escalation from late reminder ${s.escalateFrom}` : 'not chased'} (${s.source === 'tpa' ? 'its own schedule' : "the install's schedule"})\n`,
        ),
      );
    });
}

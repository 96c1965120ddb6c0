/**
 * Chasing (docs/chasing.md): contacts of TPAs and clients, per-TPA reminder schedules, chase runs
 * and the outbox, a fund's chases, 'Return to TPA', and the signed-in user's open chases with the
 * answer upload. Thin: every rule is in `server/services/chasing/`.
 */
import { z } from 'zod';
import { GROUP_ROLES } from '../../services/auth/permissions.js';
import type { User } from '../../services/auth/tokens.js';
import { answerChase, cancelChase, chaseEvidenceCsv, fundChases, getChase, myOpenChases, returnToTpa } from '../../services/chasing/chases.js';
import { contactOwners, createContact, deleteContact, listContacts, updateContact } from '../../services/chasing/contacts.js';
import { queueChaseRun } from '../../services/chasing/jobs.js';
import { listOutbox } from '../../services/chasing/outbox.js';
import { runChase } from '../../services/chasing/run.js';
import { clearTpaSchedule, installSchedule, scheduleOf, setTpaSchedule } from '../../services/chasing/schedule.js';
import { fileResponse, formFiles, type StagedUpload } from '../multipart.js';
import { defineRoute } from '../route.js';

const id = z.coerce.number().int().positive();
const contactBody = z.object({
  administratorId: id.nullish(),
  administratorCode: z.string().nullish(),
  client: z.string().nullish(),
  full_name: z.string().nullish(),
  email: z.string().nullish(),
  role: z.string().nullish(),
  time_zone: z.string().nullish(),
});
const actor = (user: User) => ({ id: user.id, email: user.email });
/** Delivery-team users act on any chase; others only on chases addressed to them. */
const isDelivery = (user: User) => GROUP_ROLES.delivery.includes(user.role);

export const chasingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/contacts',
    group: 'shared',
    tag: 'chasing',
    query: z.object({ administratorId: id.optional(), administratorCode: z.string().optional(), client: z.string().optional() }),
    summary: 'Contacts of TPAs and clients (name, e-mail, role data/escalation, time zone); filter by TPA or client',
    handler: ({ ctx, query }) => listContacts(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/contacts/owners',
    group: 'shared',
    tag: 'chasing',
    summary: 'The TPAs and clients contacts are kept for, each with how many contacts it has (and, for a TPA, whether it has its own reminder schedule)',
    handler: ({ ctx }) => contactOwners(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/contacts',
    group: 'delivery',
    tag: 'chasing',
    body: contactBody,
    summary: 'Add a contact to a TPA (administratorId or administratorCode) or a client; a bad e-mail (RFC 5322) is a field error on email',
    handler: ({ ctx, user, body }) => createContact(ctx, actor(user), body),
  }),
  defineRoute({
    method: 'POST',
    path: '/contacts/:id',
    group: 'delivery',
    tag: 'chasing',
    body: contactBody.omit({ administratorId: true, administratorCode: true, client: true }),
    summary: 'Change a contact (full_name, email, role, time_zone)',
    handler: ({ ctx, user, body, params }) => updateContact(ctx, actor(user), Number(params.id), body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/contacts/:id',
    group: 'delivery',
    tag: 'chasing',
    summary: 'Remove a contact',
    handler: ({ ctx, user, params }) => deleteContact(ctx, actor(user), Number(params.id)),
  }),
  defineRoute({
    method: 'GET',
    path: '/administrators/:id/chase-schedule',
    group: 'shared',
    tag: 'chasing',
    summary: "A TPA's reminder schedule for missing files: its own, else the install's ({offsets, escalateFrom, enabled, source})",
    handler: ({ ctx, params }) => scheduleOf(ctx, Number(params.id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/administrators/:id/chase-schedule',
    group: 'delivery',
    tag: 'chasing',
    body: z.object({
      offsets: z.union([z.string(), z.array(z.number().int())]).optional(),
      escalateFrom: z.number().int().optional(),
      enabled: z.boolean().optional(),
      reset: z.boolean().optional(),
    }),
    summary:
      "Set a TPA's own schedule (offsets: days relative to the due date, e.g. '-3,0,3,7'; escalateFrom; enabled) or reset it to the install's ({reset: true})",
    handler: ({ ctx, user, body, params }) =>
      body.reset
        ? clearTpaSchedule(ctx, actor(user), Number(params.id))
        : setTpaSchedule(ctx, actor(user), Number(params.id), {
            offsets: body.offsets ?? installSchedule(ctx).offsets,
            escalateFrom: body.escalateFrom,
            enabled: body.enabled,
          }),
  }),
  defineRoute({
    method: 'POST',
    path: '/chase/run',
    group: 'delivery',
    tag: 'chasing',
    body: z.object({
      dryRun: z.boolean().optional(),
      today: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
    }),
    summary: 'Run chasing: dryRun answers what would be mailed and writes nothing; otherwise the run is queued as a job (its process row is answered)',
    handler: async ({ ctx, user, body }) =>
      body.dryRun
        ? runChase(ctx, { dryRun: true, today: body.today, trigger: 'api', actor: actor(user) })
        : queueChaseRun(ctx, { trigger: 'api', today: body.today, createdById: user.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/chase/outbox',
    group: 'delivery',
    tag: 'chasing',
    query: z.object({
      status: z.enum(['pending', 'sending', 'sent', 'failed', 'cancelled']).optional(),
      limit: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    summary: 'The chase mails, newest first: recipient, subject, status, attempts, last error',
    handler: ({ ctx, query }) => listOutbox(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/fund/:id/chases',
    group: 'shared',
    tag: 'chasing',
    summary: "A fund's chases, open ones first, each with its evidence and timeline",
    handler: ({ ctx, params }) => fundChases(ctx, Number(params.id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/:id/return',
    group: 'shared',
    tag: 'chasing',
    body: z.object({ fundFileId: id.nullish(), reason: z.string() }),
    summary: 'Return to TPA: a reviewer sends a file (fundFileId) or the whole fund back with a reason; it goes out with the next chase run',
    handler: ({ ctx, user, body, params }) => returnToTpa(ctx, user, { fundRequestId: Number(params.id), fundFileId: body.fundFileId, reason: body.reason }),
  }),
  defineRoute({
    method: 'POST',
    path: '/chases/:id/cancel',
    group: 'delivery',
    tag: 'chasing',
    body: z.object({ note: z.string().optional() }),
    summary: 'Cancel an open chase (the delivery team withdraws it)',
    handler: ({ ctx, user, body, params }) => cancelChase(ctx, user, Number(params.id), body.note),
  }),
  defineRoute({
    method: 'GET',
    path: '/chases/mine',
    group: 'session',
    tag: 'chasing',
    query: z.object({ fund: id.optional(), recent: z.enum(['0', '1']).optional() }),
    summary:
      'The open chases of the signed-in user (their address is a recipient, or a contact of the TPA or client), optionally of one fund; recent=1 adds those closed in the last 30 days',
    handler: ({ ctx, user, query }) => myOpenChases(ctx, user, { fundRequestId: query.fund, recent: query.recent === '1' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/chases/:id',
    group: 'shared',
    tag: 'chasing',
    summary: 'One chase with its evidence and timeline',
    handler: ({ ctx, params }) => getChase(ctx, Number(params.id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/chases/:id/answer',
    group: 'session',
    tag: 'chasing',
    multipart: true,
    form: z.object({ upload: formFiles({ description: 'The missing or corrected file', tooMany: 'Upload one file per answer' }) }),
    summary: 'Answer a chase with the missing or corrected file: imported for the fund and run through the pipeline; the chase becomes answered',
    handler: async ({ ctx, user, form, params }) => {
      const [file] = (form as { upload: StagedUpload[] }).upload;
      return answerChase(ctx, user, Number(params.id), { fileName: file.fileName, staged: file }, { delivery: isDelivery(user) });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/chases/:id/evidence.csv',
    group: 'session',
    tag: 'chasing',
    raw: true,
    summary: "A chase's failing rows as CSV",
    handler: async ({ ctx, user, params }) => {
      const { fileName, csv } = await chaseEvidenceCsv(ctx, user, Number(params.id), { delivery: isDelivery(user) });
      return fileResponse(csv, fileName, 'text/csv; charset=utf-8');
    },
  }),
];

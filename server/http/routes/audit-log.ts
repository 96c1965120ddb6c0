/**
 * The security audit log in the developer tools: a page of entries newest first, the chain's
 * verification, and the whole log as JSON lines (`server/services/audit/audit-log.ts`).
 */
import { z } from 'zod';
import { exportAuditLog, listAuditLog, verifyAuditLog } from '../../services/audit/audit-log.js';
import { defineRoute } from '../route.js';
import { auditLogSchema } from '../schemas/dev-tools.js';

export const auditLogRoutes = [
  defineRoute({
    method: 'GET',
    path: '/dev-tools/audit-log',
    group: 'devTools',
    tag: 'dev-tools',
    query: z.object({ before: z.coerce.number().int().min(1).optional(), limit: z.coerce.number().int().min(1).max(1000).optional() }),
    summary:
      'Security audit log entries newest first ?before=<id>&limit=<1-1000, 100> -> [{id, at, actorId, actorEmail, action, subject, details, prevHash, hash}]',
    response: auditLogSchema,
    handler: ({ ctx, query }) => listAuditLog(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/audit-log/verify',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'Checks the audit log hash chain -> {ok, entries, problems: [text naming the entry]}',
    response: z.strictObject({ ok: z.boolean(), entries: z.number().int(), problems: z.array(z.string()) }),
    handler: ({ ctx }) => verifyAuditLog(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/dev-tools/audit-log/export',
    group: 'devTools',
    tag: 'dev-tools',
    tokenFrom: 'query',
    raw: true,
    query: z.object({ token: z.string() }),
    summary: 'The whole audit log as JSON lines, oldest first ?token= (token from GET /export/token)',
    handler: ({ ctx }) => {
      const lines = exportAuditLog(ctx);
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(new TextEncoder().encode(next.value));
        },
        async cancel() {
          await lines.return(undefined);
        },
      });
      const day = new Date().toISOString().slice(0, 10);
      return new Response(body, {
        headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': `attachment; filename="audit-log-${day}.jsonl"` },
      });
    },
  }),
];

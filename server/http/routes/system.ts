/** Health and reference data. */
import { health } from '../../services/health/health.js';
import { readyResponse } from '../health.js';
import { nrdJson } from '../../services/reference-data/reference-data.js';
import { z } from 'zod';
import { defineRoute, SerializedPayload } from '../route.js';
import { nrdSchema } from '../schemas/reference-data.js';

const readiness = {
  ready: z.boolean(),
  checks: z.strictObject({
    migrations: z.strictObject({ ok: z.boolean(), schemaVersion: z.number().int(), expected: z.number().int() }),
    workers: z.strictObject({ ok: z.boolean(), expected: z.number().int(), running: z.number().int(), otherProcesses: z.number().int() }),
    database: z.strictObject({ ok: z.boolean(), error: z.string().optional() }),
  }),
};

export const systemRoutes = [
  defineRoute({
    method: 'GET',
    path: '/health',
    base: 'api',
    group: 'public',
    tag: 'system',
    summary: 'Liveness and readiness (migrations done, job workers up), application and database schema versions; also HEAD',
    response: z.strictObject({ status: z.literal('ok'), live: z.literal(true), version: z.string(), schemaVersion: z.number().int(), ...readiness }),
    handler: ({ ctx }) => health(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/health/live',
    base: 'api',
    group: 'public',
    tag: 'system',
    summary: 'Liveness: 200 while the process answers; also HEAD',
    response: z.strictObject({ live: z.literal(true) }),
    handler: () => ({ live: true }),
  }),
  defineRoute({
    method: 'GET',
    path: '/health/ready',
    base: 'api',
    group: 'public',
    tag: 'system',
    summary: 'Readiness: 200 when migrations are done and job workers are up, else 503 naming the failing check; also HEAD',
    raw: true,
    rawAnswers: {
      '200': 'Ready: a JSON document with each check (not in the envelope)',
      '503': 'Not ready: the same document naming the failing checks',
    },
    handler: ({ ctx }) => readyResponse(ctx),
  }),
  defineRoute({
    method: 'GET',
    path: '/nrd',
    group: 'session',
    tag: 'reference-data',
    summary: 'Reference data lists, each entry {code, alt_code, deprecated}; deprecated entries omitted',
    response: nrdSchema,
    // serialized once per answer so it goes out gzip-compressed to clients that accept it (first-load size)
    handler: async ({ ctx }) => new SerializedPayload(await nrdJson(ctx)),
  }),
];

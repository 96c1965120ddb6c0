/** Demo mode and the wiki (auditor spec section 7: `/demo/*`, `GET /wiki-data`). */
import { z } from 'zod';
import { demoFiles, demoFundRequest, demoReset, demoStatus } from '../../services/demo/demo.js';
import { wikiData, wikiSchema } from '../../services/wiki/wiki.js';
import { defineRoute } from '../route.js';
import { demoStateSchema } from '../schemas/demo.js';

const demoBody = z.object({ codes: z.array(z.string()).optional(), tests: z.array(z.string()).optional() });

export const demoWikiRoutes = [
  defineRoute({
    method: 'GET',
    path: '/wiki-data',
    group: 'session',
    tag: 'wiki',
    summary: 'Wiki sections of titled links and mail items, data sandbox and sample outputs (edited in <data dir>/wiki.json)',
    response: wikiSchema,
    handler: ({ ctx }) => wikiData(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/demo/step',
    group: 'shared',
    tag: 'demo',
    summary:
      'The demo state: step, fundRequestDemo [{userId, email, start_date}], loading, and cleanup: what steps 1 and 3 would remove now and which demo requests stay',
    body: demoBody,
    response: demoStateSchema,
    handler: ({ ctx }) => demoStatus(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/demo/fund-request',
    group: 'shared',
    tag: 'demo',
    summary:
      "Demo step 1: remove what is left of an earlier demo (only the demo's own, unchanged requests) and create the demo fund request of the demo TPA (body {codes: ['demo_test'], tests: ['2']}); removed says what went",
    body: demoBody,
    response: demoStateSchema,
    handler: ({ ctx, user, body }) => demoFundRequest(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/demo/files',
    group: 'shared',
    tag: 'demo',
    summary: 'Demo step 2: deliver the demo input files through the pipeline',
    body: demoBody,
    response: demoStateSchema,
    handler: ({ ctx, user, body }) => demoFiles(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/demo/reset',
    group: 'shared',
    tag: 'demo',
    summary:
      "Demo step 3: remove the demo's own fund requests and input files (never one a user uploaded, changed or delivered files to) and start over; removed says what went and what stayed",
    body: demoBody,
    response: demoStateSchema,
    handler: ({ ctx, user, body }) => demoReset(ctx, user, body),
  }),
];

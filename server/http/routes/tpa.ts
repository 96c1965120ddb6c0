/** Onboarding a TPA (docs/onboarding.md): create the administrator, and the onboarding guide itself. */
import { z } from 'zod';
import { createTpa } from '../../services/tpa/tpa.js';
import { ONBOARDING_MD } from '../../services/wiki/onboarding-doc.data.js';
import { fileResponse } from '../multipart.js';
import { defineRoute } from '../route.js';
import { tpaViewSchema } from '../schemas/tpa.js';

export const tpaRoutes = [
  defineRoute({
    method: 'POST',
    path: '/administrators',
    group: 'delivery',
    tag: 'tpa',
    summary: "Create a TPA without mappings ({code, name, region?}); the code follows the name rule; 'Administrator already exist' when taken",
    body: z.object({ code: z.string(), name: z.string(), region: z.string().nullish() }),
    response: tpaViewSchema,
    handler: ({ ctx, body }) => createTpa(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/docs/onboarding.md',
    group: 'session',
    tag: 'wiki',
    tokenFrom: 'query',
    raw: true,
    summary: 'The onboarding guide: SDM types and columns, file layouts, mapping targets, a worked example (markdown; download token in ?token=)',
    handler: () => fileResponse(ONBOARDING_MD, 'onboarding.md', 'text/markdown; charset=utf-8'),
  }),
];

/** Response payload schemas of demo mode and the wiki (spec section 3 "Demo state"), mirroring `DemoAnswer` of server/services/demo/demo.ts. */
import { z } from 'zod';

const fundRef = { id: z.number().int(), name: z.string(), fund_code: z.string().nullable(), status: z.string() };

/** What the demo removes or removed: its fund requests and input files, its requests that stay (and why), other requests of the demo TPA. */
export const demoCleanupSchema = z.strictObject({
  fundRequests: z.array(z.strictObject(fundRef)),
  importFiles: z.array(z.string()),
  kept: z.array(z.strictObject({ ...fundRef, reason: z.string() })),
  otherFundRequests: z.number().int(),
});

/** The demo state: the step reached, the demo fund requests made, whether a step is running; what a removal would take now; what a step removed. */
export const demoStateSchema = z.strictObject({
  step: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  fundRequestDemo: z.array(z.strictObject({ userId: z.number().int(), email: z.string(), start_date: z.string(), fundRequestId: z.number().int() })),
  loading: z.boolean(),
  cleanup: demoCleanupSchema,
  removed: demoCleanupSchema.optional(),
});

/** Response payload schemas of demo mode and the wiki (spec section 3 "Demo state"), mirroring `DemoState` of server/services/demo/demo.ts. */
import { z } from 'zod';

/** The demo state: the step reached, the demo fund requests made, whether a step is running. */
export const demoStateSchema = z.strictObject({
  step: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  fundRequestDemo: z.array(z.strictObject({ userId: z.number().int(), email: z.string(), start_date: z.string(), fundRequestId: z.number().int() })),
  loading: z.boolean(),
});

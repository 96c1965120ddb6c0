/**
 * Response payload schemas of TPAs and self-onboarding (auditor spec section 7 "Self onboarding"),
 * mirroring `TpaView` of server/services/tpa/tpa.ts and the answers of server/services/sdm-upload.
 */
import { z } from 'zod';

/** A TPA as created or listed. */
export const tpaViewSchema = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  region: z.string().nullable(),
  selfOnboarded: z.boolean(),
});

/** A TPA with its active master mappings (self-onboarding's TPA choice). */
export const sdmAdministratorSchema = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  mappings: z.array(z.strictObject({ id: z.number().int(), type: z.string() })),
});

/** Feedback on a new TPA name. */
export const tpaNameCheckSchema = z.strictObject({ status: z.enum(['New', 'Administrator already exist', 'Invalid']), message: z.string() });

/**
 * Text fields of multipart forms (a route's `form` schema beside its `formFiles` parts): a form
 * sends every value as a string, so these trim it and treat an empty field as a missing one.
 */
import { z } from 'zod';

/**
 * A required text field, trimmed: missing or blank answers `message` (code `invalid_type` when
 * missing, `too_small` when blank).
 */
export function requiredFormText(message: string, description: string) {
  return z.string({ error: message }).trim().min(1, message).describe(description);
}

/** An optional text field, trimmed; missing or blank is `undefined`. */
export function optionalFormText(description: string) {
  return z
    .string()
    .trim()
    .optional()
    .describe(description)
    .transform((v) => v || undefined);
}

/**
 * A required whole-number id sent as text (`' 12 '` reads as 12): missing, not a number, not whole
 * or not positive answers `message`.
 */
export function formId(message: string, description: string) {
  return z.coerce.number({ error: message }).int(message).positive(message).describe(description);
}

/**
 * An optional field holding JSON text, parsed and checked against `schema`; missing or empty is
 * `undefined`. Text that is not JSON answers `message` (code `custom`); JSON of another shape
 * answers `schema`'s issues under the field's name (`touchedMappings.newMappings`).
 */
export function optionalFormJson<T extends z.ZodType>(schema: T, message: string, description: string) {
  return z
    .string()
    .optional()
    .describe(description)
    .transform((text, ctx) => {
      if (!text) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    })
    .pipe(schema.optional());
}

/** Zod parsing for services called outside the HTTP layer (CLI, other services): failures become ValidationError. */
import type { z } from 'zod';
import { ValidationError } from '../../errors.js';

/**
 * Parses input with a schema.
 * @throws ValidationError 'The request is not valid' listing each problem as `path: message`
 */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new ValidationError(
      'The request is not valid',
      parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`),
    );
  return parsed.data;
}

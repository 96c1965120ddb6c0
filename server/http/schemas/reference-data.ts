/**
 * Response payload schema of the reference data lists (`GET /nrd`), mirroring `getNrd`: every
 * static list of the catalog plus administrators and users, each entry `{code, alt_code, deprecated}`.
 */
import { z } from 'zod';
import { STATIC_LISTS, type StaticListName } from '../../services/reference-data/catalog/index.js';

const entries = z.array(z.strictObject({ code: z.string(), alt_code: z.string(), deprecated: z.literal(false) }));

/** The lists for selects; deprecated entries are left out, so `deprecated` is always false. */
export const nrdSchema = z.strictObject({
  ...(Object.fromEntries(Object.keys(STATIC_LISTS).map((name) => [name, entries])) as Record<StaticListName, typeof entries>),
  administrators: entries,
  users: entries,
});

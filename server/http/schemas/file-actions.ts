/**
 * Response payload schemas of the actions on a fund's files and work papers (delivery spec
 * section 7 `POST /file/review`, `/file/disable`, `/file/remove`, `/fund/file/reset`,
 * `/fund/reviewall`, `/fund/set-aggreg-force-run`, `/fund/triggerdbpush`; Fund details Release all
 * / Unrelease all), mirroring `FileActionResult` of server/services/files/fund-files.ts and the
 * answers of server/services/funds/details-actions.ts.
 */
import { z } from 'zod';
import { fileViewSchema } from './fund-details.js';

const int = z.number().int();

/** The files as they are after the action and the standardization processes it queued. */
export const fileActionResultSchema = z.strictObject({
  files: z.array(fileViewSchema),
  queued: z.array(z.strictObject({ fundRequestId: int, processId: int })),
});

/** Removed input files: no file left to show, the ids removed, the processes queued. */
export const filesRemovedSchema = z.strictObject({ ...fileActionResultSchema.shape, removed: z.array(int) });

/** Release all / Unrelease all: every work paper of the fund, how many changed, the ones left out and why. */
export const workPapersReleasedSchema = z.strictObject({
  ...fileActionResultSchema.shape,
  changed: int,
  skipped: z.array(z.strictObject({ id: int, fileName: z.string(), reason: z.string() })),
});

/** The forced aggregation rerun flag as set, with the calculations process queued for a parent. */
export const aggregForceRunSchema = z.strictObject({ id: int, aggreg_force_run: z.boolean(), processId: int.optional() });

/** A Db push: the file written, its standardized rows and check results. */
export const dbPushSchema = z.strictObject({ fundId: int, file: z.string(), rows: int, checks: int });

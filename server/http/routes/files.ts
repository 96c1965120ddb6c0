/**
 * Fund files, the Input files issue lists, swept files and fund logs (delivery spec section 7:
 * `/file/review`, `/file/disable`, `/file/remove`, `/fund/file/reset`, `/files/not-identified/*`,
 * `/files/not-matched/*`, `/files/sweeper/logs/list`, `/logs/orchestration`; Fund details Release
 * all / Unrelease all and the Errors tab, whose paths the spec does not show).
 */
import { z, type ZodType } from 'zod';
import {
  assignFiles,
  assignInputSchema,
  actionInputSchema,
  issueListSchema,
  listUnidentified,
  listUnmatched,
  removeIssueFiles,
  removeIssueInputSchema,
  setFileAction,
  type IssueKind,
} from '../../services/files/file-lists.js';
import {
  disableFiles,
  disableInputSchema,
  releaseInputSchema,
  releaseWorkPapers,
  removeFiles,
  removeInputSchema,
  resetFileInputSchema,
  resetFundFile,
  reviewFiles,
  reviewInputSchema,
} from '../../services/files/fund-files.js';
import { listErrorLog, listOrchestrationLogs, logsInputSchema } from '../../services/files/logs.js';
import { listSweptFiles } from '../../services/imports/sweeper.js';
import { defineRoute } from '../route.js';
import { fileActionResultSchema, filesRemovedSchema, workPapersReleasedSchema } from '../schemas/file-actions.js';
import {
  errorLogRowSchema,
  issueActionSetSchema,
  issueAssignedSchema,
  issuePageOf,
  issueRemovedSchema,
  logRowSchema,
  sweptRowSchema,
  unidentifiedRowSchema,
  unmatchedRowSchema,
} from '../schemas/file-lists.js';

const FILE_RESULT = 'Returns {files: [file rows as now], queued: [{fundRequestId, processId}]}';
const paging = z.object({
  pagination: z
    .object({ limit: z.coerce.number().int().min(1).max(1000) })
    .partial()
    .optional(),
});
const listBody = issueListSchema.extend(paging.shape);
const limitOf = (b: { limit?: number; pagination?: { limit?: number } }) => b.limit ?? b.pagination?.limit;

/** The four calls of one issue list: list, assign, action, remove. */
function issueRoutes<const B extends string, R extends ZodType>(kind: IssueKind, base: B, what: string, row: R) {
  return [
    defineRoute({
      method: 'POST',
      path: `${base}/list`,
      group: 'delivery',
      tag: 'files',
      body: listBody,
      summary: `${what}, newest first, 200 per page: {filters?, sorting?, offset?, limit?} -> {rows, pagination: {offset, limit, count}}`,
      response: issuePageOf(row),
      handler: ({ ctx, body }) => (kind === 'unidentified' ? listUnidentified : listUnmatched)(ctx, { ...body, limit: limitOf(body) }),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/assign`,
      group: 'delivery',
      tag: 'files',
      body: assignInputSchema,
      summary: `Assign ${what.toLowerCase()} to a user {ids, userId} (null clears); 404 for an unknown user or file`,
      response: issueAssignedSchema,
      handler: ({ ctx, user, body }) => assignFiles(ctx, user, kind, body),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/action`,
      group: 'delivery',
      tag: 'files',
      body: actionInputSchema,
      summary: `Set the action of ${what.toLowerCase()} {ids, action}: Unidentified, Re-requested, Ignored, Manually handled or Closed`,
      response: issueActionSetSchema,
      handler: ({ ctx, user, body }) => setFileAction(ctx, user, kind, body),
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/remove`,
      group: 'delivery',
      tag: 'files',
      body: removeIssueInputSchema,
      summary: `Remove ${what.toLowerCase()} from the list {ids} -> {removed: ids}; the imported file is kept`,
      response: issueRemovedSchema,
      handler: ({ ctx, user, body }) => removeIssueFiles(ctx, user, kind, body),
    }),
  ];
}

export const fileRoutes = [
  defineRoute({
    method: 'POST',
    path: '/file/review',
    group: 'delivery',
    tag: 'files',
    body: reviewInputSchema,
    summary: `Mark files reviewed or unreviewed {ids, reviewed, fundRequestId?}; refused while pending and for disabled files. ${FILE_RESULT}`,
    response: fileActionResultSchema,
    handler: ({ ctx, user, body }) => reviewFiles(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/file/disable',
    group: 'delivery',
    tag: 'files',
    body: disableInputSchema,
    summary: `Mark input files or work papers not required (disabled) or required {ids, disabled}; refused while pending and for reviewed files; input files queue standardization. ${FILE_RESULT}`,
    response: fileActionResultSchema,
    handler: ({ ctx, user, body }) => disableFiles(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/file/remove',
    group: 'delivery',
    tag: 'files',
    body: removeInputSchema,
    summary: 'Remove input files {ids} with their standardization files and SDM rows, then queue standardization -> {files: [], removed: ids, queued}',
    response: filesRemovedSchema,
    handler: ({ ctx, user, body }) => removeFiles(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/file/reset',
    group: 'delivery',
    tag: 'files',
    body: resetFileInputSchema,
    summary: `Reset a fund's current input file of one type {id: fund id, fileType, forceReset?} to pending and queue standardization (force run). ${FILE_RESULT}`,
    response: fileActionResultSchema,
    handler: ({ ctx, user, body }) => resetFundFile(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/workpapers/release',
    group: 'delivery',
    tag: 'files',
    body: releaseInputSchema,
    summary: 'Release all / Unrelease all work papers of a fund {fundRequestId, released} -> {files, changed, skipped: [{id, fileName, reason}]}',
    response: workPapersReleasedSchema,
    handler: ({ ctx, user, body }) => releaseWorkPapers(ctx, user, body),
  }),
  ...issueRoutes('unidentified', '/files/not-identified', 'Unidentified files', unidentifiedRowSchema),
  ...issueRoutes('unmatched', '/files/not-matched', 'Identified files without a matching fund', unmatchedRowSchema),
  defineRoute({
    method: 'POST',
    path: '/files/sweeper/logs/list',
    group: 'delivery',
    tag: 'files',
    body: listBody,
    summary: 'Files swept from the inbox folder (MOVEit files), newest first, 200 per page -> {rows, pagination}',
    response: issuePageOf(sweptRowSchema),
    handler: ({ ctx, body }) => listSweptFiles(ctx, { offset: body.offset, limit: limitOf(body) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/logs/orchestration',
    group: 'delivery',
    tag: 'files',
    body: logsInputSchema,
    summary:
      "A fund's orchestration logs {id, filters?, sorting?, offset?, limit?} newest first, 200 per page -> {rows: [{id, created_at, stage, status, type, sub_type, payload}], pagination}",
    response: issuePageOf(logRowSchema),
    handler: ({ ctx, body }) => listOrchestrationLogs(ctx, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/logs/errors',
    group: 'delivery',
    tag: 'files',
    body: logsInputSchema,
    summary:
      "A fund's error log {id, offset?, limit?}: entries with status error or success with warnings -> {rows: [{..., message, warnings, payload}], pagination}",
    response: issuePageOf(errorLogRowSchema),
    handler: ({ ctx, body }) => listErrorLog(ctx, body),
  }),
];

/**
 * Fund request listing, saved filters, export, status actions and the trail log (delivery spec
 * section 7; the actions both areas use are in the shared group, auditor spec section 7).
 */
import { z } from 'zod';
import {
  changeDataRequestedStatus,
  changeStatus,
  actionInputSchema,
  dataRequestInputSchema,
  rerunFunds,
  resetFunds,
  undoDelete,
  type ActionInput,
  type ActionResult,
  type StatusAction,
} from '../../services/funds/actions.js';
import type { AppContext } from '../../context.js';
import type { RouteGroup } from '../../services/auth/permissions.js';
import type { User } from '../../services/auth/tokens.js';
import { XLSX_MIME } from '../../services/funds/export-listing.js';
import { deleteFilter, DELETED_MESSAGE, listFilters, saveFilter, saveFilterSchema } from '../../services/funds/filters.js';
import { COUNT_CAP, listingInputSchema } from '../../services/funds/listing.js';
import { countListingOffThread, exportListingOffThread, listFundsJsonOffThread } from '../../threads/funds/off-thread.js';
import { listTrail, trailInputSchema } from '../../services/funds/trail-log.js';
import { defineRoute, SerializedPayload, withMessage } from '../route.js';
import { actionResultSchema, fundCountSchema, fundListingPageSchema, trailPageSchema } from '../schemas/funds.js';
import { savedFilterSchema } from '../schemas/filters.js';

const ACTION_SUMMARY = 'Returns {funds: [{id, status, statusLabel, isStatusUnChanged}], warning?}; funds that cannot move keep their status';

/**
 * A fund action route: POST `path` with the action input {ids, requestedBy?, forceRun?}, answered
 * with the funds' new statuses (`actionResultSchema`); `run` is the service call.
 */
const fundActionRoute = <const P extends string>(
  path: P,
  group: RouteGroup,
  what: string,
  run: (ctx: AppContext, user: User, input: ActionInput) => Promise<ActionResult>,
) =>
  defineRoute({
    method: 'POST',
    path,
    group,
    tag: 'funds',
    body: actionInputSchema,
    summary: `${what}. ${ACTION_SUMMARY}`,
    response: actionResultSchema,
    handler: ({ ctx, user, body }) => run(ctx, user, body),
  });

/** A shared status action: POST /fund/<action> {ids, requestedBy}. */
const statusRoute = <const P extends string>(action: StatusAction, path: P, what: string) =>
  fundActionRoute(path, 'shared', what, (ctx, user, input) => changeStatus(ctx, user, action, input));

export const fundsRoutes = [
  defineRoute({
    method: 'POST',
    path: '/funds/listing',
    group: 'delivery',
    tag: 'funds',
    body: listingInputSchema,
    summary: `One page of fund requests: {filters, sorting, search, offset, pagination: {limit}, filterId?, cursor?} -> {rows, pagination: {offset, limit, count, countCapped, next, previous}}; count stops at ${COUNT_CAP.toLocaleString('en')} (countCapped: there are more; POST /funds/listing/count counts them all); next and previous are the cursors of the pages around this one (send one as cursor, with that page's offset), null at the ends`,
    response: fundListingPageSchema,
    handler: async ({ ctx, user, body }) => new SerializedPayload(await listFundsJsonOffThread(ctx, user, body)),
  }),
  defineRoute({
    method: 'POST',
    path: '/funds/listing/count',
    group: 'delivery',
    tag: 'funds',
    body: listingInputSchema.pick({ filters: true, search: true, filterId: true }),
    summary: 'The exact number of fund requests a listing request matches {filters, search, filterId?} -> {count} (for a page whose count was capped)',
    response: fundCountSchema,
    handler: ({ ctx, user, body }) => countListingOffThread(ctx, user, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/filters',
    group: 'delivery',
    tag: 'funds',
    summary: "The fixed saved filters (ids 1-3) and the user's own: [{id, title, filter: [{field, type, value}], fixed}]",
    response: z.array(savedFilterSchema),
    handler: ({ ctx, user }) => listFilters(ctx, user),
  }),
  defineRoute({
    method: 'POST',
    path: '/filter',
    group: 'delivery',
    tag: 'funds',
    body: saveFilterSchema,
    summary: "Save a listing filter {title, filter, successMessage?} (at most 7 filters in all); message 'filter saved'",
    response: savedFilterSchema,
    handler: async ({ ctx, user, body }) => {
      const { filter, message } = await saveFilter(ctx, user, body);
      return withMessage(filter, message);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/filter/delete',
    group: 'delivery',
    tag: 'funds',
    body: z.object({ id: z.coerce.number().int().positive(), successMessage: z.string().max(200).optional() }),
    summary: "Delete one of the user's saved filters {id}; built-in filters cannot be deleted; message 'filter deleted'",
    response: z.strictObject({ id: z.number().int() }),
    handler: async ({ ctx, user, body }) => withMessage(await deleteFilter(ctx, user, body.id), body.successMessage?.trim() || DELETED_MESSAGE),
  }),
  defineRoute({
    method: 'POST',
    path: '/funds/export-all',
    group: 'delivery',
    tag: 'funds',
    raw: true,
    body: listingInputSchema.pick({ filters: true, sorting: true, search: true, filterId: true }),
    summary: 'Every fund request of the current filters, search and sorting as fundrequests.xlsx',
    handler: async ({ ctx, user, body }) => {
      const file = await exportListingOffThread(ctx, user, body);
      return new Response(new Uint8Array(file.bytes), {
        headers: { 'content-type': XLSX_MIME, 'content-disposition': `attachment; filename="${file.fileName}"`, 'x-total-count': String(file.count) },
      });
    },
  }),
  fundActionRoute('/fund/decline', 'delivery', 'Decline pending funds {ids}', (ctx, user, input) => changeStatus(ctx, user, 'decline', input)),
  fundActionRoute('/fund/rerun', 'shared', 'Rerun calculations and work papers of open funds {ids}', rerunFunds),
  fundActionRoute('/fund/reset', 'delivery', 'Queue the pipeline of funds again from identification {ids}', resetFunds),
  fundActionRoute('/fund/undo-delete', 'delivery', 'Restore deleted funds to their previous status {ids}', undoDelete),
  defineRoute({
    method: 'POST',
    path: '/fund/changeDataRequestedStatus',
    group: 'delivery',
    tag: 'funds',
    body: dataRequestInputSchema,
    summary: `Set the data-requested status {ids, status} (Requested, ReRequested, Chased1-3, NotRequested). ${ACTION_SUMMARY}`,
    response: actionResultSchema,
    handler: ({ ctx, user, body }) => changeDataRequestedStatus(ctx, user, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/logs/trail',
    group: 'delivery',
    tag: 'funds',
    body: trailInputSchema,
    summary:
      "A fund's user trail {id, filters?, sorting?, offset?, limit?} newest first, 200 per page -> {rows: [{id, user, userId, date, action, before, after}], pagination}",
    response: trailPageSchema,
    handler: ({ ctx, body }) => listTrail(ctx, body),
  }),
  statusRoute('approve', '/fund/approve', 'Open funds (status Approved) {ids, requestedBy}'),
  statusRoute('close', '/fund/close', 'Close funds (Completed - Fund Closed) {ids, requestedBy}; from the auditor area only open funds'),
  statusRoute('issue', '/fund/issue', 'Issue funds {ids, requestedBy}'),
  statusRoute('pause', '/fund/pause', 'Pause funds {ids, requestedBy}'),
  statusRoute('remove', '/fund/remove', 'Delete funds {ids, requestedBy} (not issued ones); undo with /fund/undo-delete'),
];

/**
 * A fund's audit adjustments (delivery spec, Fund details: adjustment dialogs, 'Rerun adjustments'
 * and 'Rerun apportionment'; docs/decisions/0012-audit-adjustments.md).
 */
import { createAdjustment, deleteAdjustment, listAdjustments, rerunAdjustments, updateAdjustment } from '../../services/adjustments/adjustments.js';
import { defineRoute, withMessage } from '../route.js';
import {
  adjustmentBodySchema,
  adjustmentDeletedSchema,
  adjustmentListSchema,
  adjustmentRerunBodySchema,
  adjustmentRerunSchema,
  adjustmentSchema,
} from '../schemas/adjustments.js';

const ERRORS = "404 'No such fund request with id: {id}'; 400 'The adjustment is not valid' with {column, message} per field in error";

export const adjustmentRoutes = [
  defineRoute({
    method: 'GET',
    path: '/fund/:id/adjustments',
    group: 'delivery',
    tag: 'adjustments',
    summary: "The fund's audit adjustments, oldest first: [{id, type, description, bookedByTpa, lines, author, createdAt, updatedAt}]",
    response: adjustmentListSchema,
    handler: ({ ctx, params }) => listAdjustments(ctx, Number(params.id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/:id/adjustments',
    group: 'delivery',
    tag: 'adjustments',
    summary: `Add an adjustment {type, description, bookedByTpa, lines: [{account, target, securityId?, amount, description?}]}; ${ERRORS}`,
    body: adjustmentBodySchema,
    response: adjustmentSchema,
    handler: async ({ ctx, user, params, body }) => withMessage(await createAdjustment(ctx, user, Number(params.id), body), 'Adjustment added'),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/:id/adjustments/rerun',
    group: 'delivery',
    tag: 'adjustments',
    summary: "Rerun adjustments or apportionment {rerun}: queues the fund's calculations, then its work paper",
    body: adjustmentRerunBodySchema,
    response: adjustmentRerunSchema,
    handler: async ({ ctx, user, params, body }) => withMessage(await rerunAdjustments(ctx, user, Number(params.id), body.rerun), 'Recalculation queued'),
  }),
  defineRoute({
    method: 'POST',
    path: '/fund/:id/adjustments/:adjustmentId',
    group: 'delivery',
    tag: 'adjustments',
    summary: `Replace an adjustment's type, description, booked by TPA and lines; ${ERRORS}`,
    body: adjustmentBodySchema,
    response: adjustmentSchema,
    handler: async ({ ctx, user, params, body }) =>
      withMessage(await updateAdjustment(ctx, user, Number(params.id), Number(params.adjustmentId), body), 'Adjustment saved'),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/fund/:id/adjustments/:adjustmentId',
    group: 'delivery',
    tag: 'adjustments',
    summary: 'Delete an adjustment (the trail keeps it); 404 for an unknown fund or adjustment',
    response: adjustmentDeletedSchema,
    handler: async ({ ctx, user, params }) =>
      withMessage(await deleteAdjustment(ctx, user, Number(params.id), Number(params.adjustmentId)), 'Adjustment deleted'),
  }),
];

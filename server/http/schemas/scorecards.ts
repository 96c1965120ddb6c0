/**
 * Query and response schemas of the scorecards (`/scorecards/tpa`, `/scorecards/client` and their
 * `/funds` drill-down), mirroring `server/services/scorecards/`. The queries check the shape only;
 * the service checks the months and names what is wrong.
 */
import { z } from 'zod';
import { FUND_FILTERS } from '../../../rules/scorecards.js';

const month = z.string().describe('a month, YYYY-MM');

/** Which scorecard: a TPA's code or name, or a client's name (omitted: all), and the months of data due dates. */
export const scorecardQuerySchema = z.object({
  key: z.string().optional().describe("a TPA's code or name, or a client's name (case-insensitive); omitted: every TPA or client"),
  from: month.optional().describe('first month of data due dates, YYYY-MM (default: 11 months before to)'),
  to: month.optional().describe('last month of data due dates, YYYY-MM (default: this month)'),
});

/** The drill-down: the fund requests behind a figure. */
export const scorecardFundsQuerySchema = scorecardQuerySchema.extend({
  month: month.optional().describe('one month of the range (omitted: the whole range)'),
  filter: z.enum(FUND_FILTERS).optional().describe('the requests a figure counts (default all)'),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).optional().describe('at most 500 (default 100)'),
});

const rate = z.number().nullable().describe('percentage 0-100, one decimal; null: nothing measured');
const days = z.number().nullable().describe('calendar days; null: nothing measured');

/** The figures of a set of fund requests (rules/scorecards.ts `Figures`). */
export const figuresSchema = z.strictObject({
  requests: z.number().int().describe('fund requests whose data due date falls in the period'),
  measured: z.number().int().describe('requests whose timeliness is judged: complete, or the data due date passed'),
  onTime: z.number().int(),
  late: z.number().int(),
  onTimeRate: rate,
  meanDaysLate: days,
  p90DaysLate: days,
  checked: z.number().int().describe('requests whose first complete delivery was checked'),
  firstTimeRight: z.number().int(),
  firstTimeRightRate: rate,
  reDeliveries: z.number().int(),
  reDeliveriesPerRequest: z.number().nullable(),
  chasesSent: z.number().int(),
  chasesOpen: z.number().int(),
  chasesAnswered: z.number().int(),
  medianDaysToAnswer: days,
});

const groupSchema = z.strictObject({ key: z.string().describe("the TPA's code (empty: requests without one), or the client's name"), name: z.string() });

/** A scorecard: the figures, their monthly trend and the ranking worst first. */
export const scorecardSchema = z.strictObject({
  kind: z.enum(['tpa', 'client']),
  from: z.string(),
  to: z.string(),
  asOf: z.string().describe('the day the figures were computed for (ISO date): an incomplete request is late as of then'),
  group: groupSchema.nullable().describe('the TPA or client asked for; null: all'),
  scope: z.strictObject({
    client: z.string().nullable().describe("a Client user's client: the only requests counted"),
    unlinked: z.boolean().describe('a Client user whose user names no client (nothing is counted)'),
  }),
  figures: figuresSchema,
  months: z.array(z.strictObject({ month: z.string(), figures: figuresSchema })),
  ranking: z.array(groupSchema.extend({ figures: figuresSchema })).describe('every TPA or client of the range, worst first'),
});

/** A page of the fund requests behind a figure. */
export const scorecardFundPageSchema = z.strictObject({
  rows: z.array(
    z.strictObject({
      id: z.number().int(),
      fundCode: z.string().nullable(),
      name: z.string(),
      client: z.string(),
      administrator: z.string().nullable(),
      dueDate: z.string(),
      completedAt: z.string().nullable().describe('when the last required file first arrived (ISO timestamp); null while one is missing'),
      onTime: z.boolean().nullable().describe('null: not judged yet (incomplete, not due)'),
      daysLate: z.number().int().nullable(),
      firstTimeRight: z.boolean().nullable().describe('null: the first complete delivery was not checked yet'),
      reDeliveries: z.number().int(),
      chasesSent: z.number().int(),
      chasesOpen: z.number().int(),
      medianDaysToAnswer: z.number().nullable(),
    }),
  ),
  pagination: z.strictObject({ offset: z.number().int(), limit: z.number().int(), count: z.number().int() }),
});

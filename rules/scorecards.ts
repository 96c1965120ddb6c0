/**
 * TPA and client scorecards (docs/scorecards.md): whose figures, the measures with their labels and
 * units, which fund requests stand behind each measure (the drill-down's filters), and how a figure
 * is written. Framework-free: the server, the browser and the CLI all read these.
 */

/** Whose figures: per TPA (administrator) or per client. */
export const SCORECARD_KINDS = ['tpa', 'client'] as const;
export type ScorecardKind = (typeof SCORECARD_KINDS)[number];

/** Label of the requests without an administrator in TPA scorecards. */
export const NO_ADMINISTRATOR = 'No administrator';

/** Longest range of months a scorecard covers. */
export const MAX_SCORECARD_MONTHS = 60;

/** Months a scorecard covers when none are given: the last 12, this one included. */
export const DEFAULT_SCORECARD_MONTHS = 12;

/**
 * The figures of a set of fund requests. Rates are percentages 0-100 (one decimal); days one
 * decimal (the 90th percentile whole days); null when there is nothing to measure.
 */
export interface Figures {
  /** fund requests whose data due date falls in the period */
  requests: number;
  /** requests whose timeliness is judged: every required file received, or the data due date passed */
  measured: number;
  onTime: number;
  late: number;
  onTimeRate: number | null;
  meanDaysLate: number | null;
  p90DaysLate: number | null;
  /** requests whose first complete delivery was checked */
  checked: number;
  firstTimeRight: number;
  firstTimeRightRate: number | null;
  reDeliveries: number;
  /** re-deliveries per request, two decimals */
  reDeliveriesPerRequest: number | null;
  chasesSent: number;
  chasesOpen: number;
  /** chases answered after their first mail */
  chasesAnswered: number;
  medianDaysToAnswer: number | null;
}

/** How a measure is written: a count, a percentage, days, or a ratio. */
export type MeasureUnit = 'count' | 'percent' | 'days' | 'ratio';

/** Which fund requests of a scorecard to list: those a figure counts. */
export const FUND_FILTERS = [
  'all',
  'measured',
  'on_time',
  'late',
  'not_measured',
  'checked',
  'first_time_right',
  'not_first_time_right',
  'redelivered',
  'chased',
  'open_chases',
  'answered',
] as const;
export type FundFilter = (typeof FUND_FILTERS)[number];

/** Labels of the filters, as the page and the export show them. */
export const FUND_FILTER_LABELS: Record<FundFilter, string> = {
  all: 'All requests',
  measured: 'Timeliness judged',
  on_time: 'On time',
  late: 'Late',
  not_measured: 'Not due yet',
  checked: 'First complete delivery checked',
  first_time_right: 'First time right',
  not_first_time_right: 'Not first time right',
  redelivered: 'Re-delivered',
  chased: 'Chased',
  open_chases: 'With open chases',
  answered: 'With answered chases',
};

/** A measure of the scorecard: its figure, label, unit, whether higher is better, and the requests behind it. */
export interface Measure {
  key: keyof Figures;
  label: string;
  /** a short label for narrow tables and chart legends */
  short: string;
  unit: MeasureUnit;
  /** true: a higher value is better; false: lower is better; null: neither (a volume) */
  higherIsBetter: boolean | null;
  /** the drill-down's filter listing the requests that make the figure (the ones that hurt it, where there are such) */
  drillDown: FundFilter;
  /** one sentence on what the figure counts (the page's tooltip, the CLI's --help) */
  help: string;
}

/** The measures a scorecard shows, in the order of its table and charts. */
export const MEASURES = [
  {
    key: 'requests',
    label: 'Requests',
    short: 'Requests',
    unit: 'count',
    higherIsBetter: null,
    drillDown: 'all',
    help: 'Fund requests whose data due date falls in the period.',
  },
  {
    key: 'onTimeRate',
    label: 'On-time rate',
    short: 'On time',
    unit: 'percent',
    higherIsBetter: true,
    drillDown: 'late',
    help: 'Share of judged requests whose required files had all arrived by the data due date.',
  },
  {
    key: 'meanDaysLate',
    label: 'Mean days late',
    short: 'Mean late',
    unit: 'days',
    higherIsBetter: false,
    drillDown: 'late',
    help: 'Mean calendar days from the data due date to the last required file, over the late requests (still missing: to today).',
  },
  {
    key: 'p90DaysLate',
    label: '90th percentile days late',
    short: 'P90 late',
    unit: 'days',
    higherIsBetter: false,
    drillDown: 'late',
    help: 'Nine in ten late requests were at most this many days late.',
  },
  {
    key: 'firstTimeRightRate',
    label: 'First-time-right rate',
    short: 'First right',
    unit: 'percent',
    higherIsBetter: true,
    drillDown: 'not_first_time_right',
    help: 'Share of requests whose first complete delivery passed every check.',
  },
  {
    key: 'reDeliveriesPerRequest',
    label: 'Re-deliveries per request',
    short: 'Re-deliv./req',
    unit: 'ratio',
    higherIsBetter: false,
    drillDown: 'redelivered',
    help: 'Files received again for a type the request already had, per request.',
  },
  {
    key: 'chasesSent',
    label: 'Chases sent',
    short: 'Chases sent',
    unit: 'count',
    higherIsBetter: false,
    drillDown: 'chased',
    help: 'Chases of the requests mailed at least once.',
  },
  {
    key: 'chasesOpen',
    label: 'Chases open',
    short: 'Chases open',
    unit: 'count',
    higherIsBetter: false,
    drillDown: 'open_chases',
    help: 'Chases of the requests still open now.',
  },
  {
    key: 'medianDaysToAnswer',
    label: 'Median days from chase to answer',
    short: 'Days to answer',
    unit: 'days',
    higherIsBetter: false,
    drillDown: 'answered',
    help: "Median days from a chase's first mail to its answer (a file delivered against it, or the chase resolved).",
  },
] as const satisfies readonly Measure[];

export type MeasureKey = (typeof MEASURES)[number]['key'];

/** What a figure is counted over, in words ('12 on time of 15 judged'); empty for a plain count. */
export function countedOver(f: Figures, key: keyof Figures): string {
  switch (key) {
    case 'onTimeRate':
      return `${f.onTime} on time of ${f.measured} judged`;
    case 'meanDaysLate':
    case 'p90DaysLate':
      return `${f.late} late ${f.late === 1 ? 'request' : 'requests'}`;
    case 'firstTimeRightRate':
      return `${f.firstTimeRight} of ${f.checked} first complete deliveries checked`;
    case 'reDeliveriesPerRequest':
      return `${f.reDeliveries} ${f.reDeliveries === 1 ? 're-delivery' : 're-deliveries'}`;
    case 'medianDaysToAnswer':
      return `${f.chasesAnswered} ${f.chasesAnswered === 1 ? 'chase' : 'chases'} answered`;
    default:
      return '';
  }
}

/** A figure as text: '87.5%', '3.2 days', '0.25', '1,204'; an em dash when nothing was measured. */
export function formatFigure(value: number | null, unit: MeasureUnit): string {
  if (value === null) return '—';
  switch (unit) {
    case 'percent':
      return `${value.toFixed(1)}%`;
    case 'days':
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${value === 1 ? 'day' : 'days'}`;
    case 'ratio':
      return value.toFixed(2);
    default:
      return value.toLocaleString('en');
  }
}

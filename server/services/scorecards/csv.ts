/**
 * A scorecard as CSV (`fund-audit scorecard --csv`): with a TPA or client named, one row per month
 * of its trend and a last row `total` for the whole range; with none, one row per TPA or client of
 * the ranking, worst first. Columns: the figures under their field names (rates 0-100, days),
 * then what they are counted over. Lines end in CRLF, no BOM (it is printed, not downloaded);
 * cells through the export's `cellText`, so no text is read as a formula.
 */
import type { Figures } from '../../../rules/scorecards.js';
import { csvLine } from '../exports/csv.js';
import type { Scorecard } from './scorecard.js';

const FIELDS: ReadonlyArray<keyof Figures> = [
  'requests',
  'onTimeRate',
  'meanDaysLate',
  'p90DaysLate',
  'firstTimeRightRate',
  'reDeliveriesPerRequest',
  'chasesSent',
  'chasesOpen',
  'medianDaysToAnswer',
  'measured',
  'onTime',
  'late',
  'checked',
  'firstTimeRight',
  'reDeliveries',
  'chasesAnswered',
];

/** The CSV text of a scorecard (see the module header). */
export function scorecardCsv(card: Scorecard): string {
  const values = (f: Figures) => FIELDS.map((k) => f[k]);
  if (card.group) {
    const head = csvLine(['month', ...FIELDS]);
    return head + card.months.map((m) => csvLine([m.month, ...values(m.figures)])).join('') + csvLine(['total', ...values(card.figures)]);
  }
  const who = card.kind === 'tpa' ? ['rank', 'tpa_code', 'tpa'] : ['rank', 'client'];
  return (
    csvLine([...who, ...FIELDS]) +
    card.ranking.map((g, i) => csvLine([i + 1, ...(card.kind === 'tpa' ? [g.key, g.name] : [g.name]), ...values(g.figures)])).join('')
  );
}

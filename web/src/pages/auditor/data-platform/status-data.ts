/** Pure helpers of the status report: the top-5 legend with 'Other' and the donut colours (spec 2.3, 9). */
import { LATE_THRESHOLD_PCT } from '../../../../../rules';
import type { NameCount } from '../../../api/auditor-types';

/** Legend entries shown before the rest is merged into 'Other'. */
export const LEGEND_TOP = 5;

/** Colours of the donut slices, 'Other' last. */
export const SLICE_COLORS = ['#1d4ed8', '#0891b2', '#16a34a', '#ca8a04', '#9333ea', '#94a3b8'];

/** The tooltip of the active count. */
export const ACTIVE_TOOLTIP = 'Fund requests where "Data Due Date" is in the past and are not "Issued"';

/** Tooltips of the two donuts (the rules module's threshold: 80% of the required input files). */
export const LATE_TOOLTIP = `Active fund requests with fewer than ${LATE_THRESHOLD_PCT}% of the required input files received`;
export const ON_TIME_TOOLTIP = `Active fund requests with more than ${LATE_THRESHOLD_PCT}% of the required input files received`;

/** The largest `top` entries (by count, then name) and the rest summed as 'Other' (left out when empty). */
export function topWithOther(list: readonly NameCount[], top = LEGEND_TOP): NameCount[] {
  const sorted = [...list].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const head = sorted.slice(0, top);
  const rest = sorted.slice(top).reduce((sum, e) => sum + e.count, 0);
  return rest > 0 ? [...head, { name: 'Other', count: rest }] : head;
}

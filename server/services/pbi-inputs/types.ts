/**
 * PowerBI input types (delivery spec "PowerBI inputs": the input-type dropdown, `GET
 * /pbi-inputs/types`). The business-intelligence inputs an audit team feeds its PowerBI reports
 * beside what Fund Audit produces itself: which engagements there are, which funds belong to them,
 * who works on them and the hours planned. Each type names the csv columns it needs (compared
 * without case, spaces or punctuation); other columns are kept as they are.
 * Documented in docs/architecture.md ("PowerBI inputs").
 */

export interface PbiInputType {
  code: string;
  name: string;
  description: string;
  /** Columns the csv header must have. */
  columns: readonly string[];
}

export const PBI_INPUT_TYPES: readonly PbiInputType[] = [
  {
    code: 'engagement_list',
    name: 'Engagement list',
    description: 'One row per audit engagement: its code, client, year end and the responsible partner and manager.',
    columns: ['engagement_code', 'client', 'fiscal_year_end', 'engagement_partner', 'engagement_manager'],
  },
  {
    code: 'fund_mapping',
    name: 'Fund mapping',
    description: 'Which engagement each fund belongs to: fund code, administrator (TPA code) and engagement code.',
    columns: ['fund_code', 'administrator', 'engagement_code'],
  },
  {
    code: 'audit_team',
    name: 'Audit team',
    description: 'Who works on each engagement: engagement code, e-mail and role of each team member.',
    columns: ['engagement_code', 'email', 'role'],
  },
  {
    code: 'budget_hours',
    name: 'Budget and hours',
    description: 'Planned and spent hours per engagement at a date.',
    columns: ['engagement_code', 'as_of', 'budget_hours', 'actual_hours'],
  },
];

/** A header cell compared without case, spaces or punctuation. */
export const normalizeColumn = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The type of a code, or undefined. */
export const pbiInputType = (code: string) => PBI_INPUT_TYPES.find((t) => t.code === code);

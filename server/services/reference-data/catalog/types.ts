/**
 * Shapes shared by the reference-data catalogue and its generated data files (kept apart from
 * `index.ts` so the generated modules can import them without a cycle).
 */

/**
 * One reference-data entry (spec section 3, "Reference data (nrd)"): `code` is what is stored on
 * a fund request, `alt_code` the human label shown in selects, `deprecated` entries stay known
 * (old data keeps validating) but are left out of the options.
 */
export interface RefEntry {
  code: string;
  alt_code: string;
  deprecated: boolean;
}

/** The static lists of the nrd payload; `administrators` and `users` are built by the server. */
export type StaticListName =
  | 'accountingStandards'
  | 'countries'
  | 'regions'
  | 'currencies'
  | 'structures'
  | 'auditTypes'
  | 'roles'
  | 'jobType'
  | 'soiRecType'
  | 'fundSubType'
  | 'priceType'
  | 'priceSource'
  | 'aggregateType'
  | 'fihiType'
  | 'hasInvestmentAnalyzer'
  | 'hasConnectedAudit';

/**
 * Hand-curated reference lists (everything except the generated countries and currencies). Each
 * list is in display order (the server stores the array index as `sort_order`). Codes are stable
 * identifiers stored on fund requests: never rename or remove one; mark it deprecated instead.
 */
import type { RefEntry } from './types.js';

type Row = readonly [code: string, label: string, deprecated?: boolean];

/** Builds entries from `[code, label, deprecated?]` rows. */
function entries(rows: readonly Row[]): RefEntry[] {
  return rows.map(([code, alt_code, deprecated = false]) => ({ code, alt_code, deprecated }));
}

/** Financial-reporting frameworks a fund's statements are prepared under. */
export const ACCOUNTING_STANDARDS = entries([
  ['IFRS', 'IFRS'],
  ['IFRS_EU', 'IFRS as adopted by the EU'],
  ['US_GAAP', 'US GAAP'],
  ['UK_GAAP_FRS102', 'UK GAAP (FRS 102)'],
  ['IRISH_GAAP_FRS102', 'Irish GAAP (FRS 102)'],
  ['LUX_GAAP', 'Lux GAAP'],
  ['JP_GAAP', 'Japanese GAAP'],
  ['CA_ASPE', 'Canadian ASPE'],
  ['AU_AAS', 'Australian Accounting Standards (AAS)'],
  ['CH_SWISS_GAAP_FER', 'Swiss GAAP FER'],
  ['DE_HGB', 'German GAAP (HGB)'],
  ['FR_PCG', 'French GAAP (PCG)'],
  ['UK_GAAP_OLD', 'UK GAAP (pre-FRS 102, old SSAP/FRS)', true],
]);

/** Audit regions (the firm's geographic areas). */
export const REGIONS = entries([
  ['EMEA', 'EMEIA'],
  ['AMER', 'Americas'],
  ['APAC', 'Asia-Pacific'],
]);

/** Fund structures (legal forms; the fund's `structure` / bulk-upload `fundType`). */
export const STRUCTURES = entries([
  ['MUTUAL_FUND', 'Mutual fund (US open-end)'],
  ['CLOSED_END', 'Closed-end fund'],
  ['ETF', 'Exchange-traded fund (ETF)'],
  ['SICAV', 'SICAV (investment company with variable capital)'],
  ['SICAF', 'SICAF (investment company with fixed capital)'],
  ['FCP', 'FCP (fonds commun de placement)'],
  ['SIF', 'SIF (specialised investment fund, Luxembourg)'],
  ['RAIF', 'RAIF (reserved alternative investment fund, Luxembourg)'],
  ['SICAR', 'SICAR (investment company in risk capital, Luxembourg)'],
  ['SCSP', 'SCSp (special limited partnership, Luxembourg)'],
  ['ICAV', 'ICAV (Irish collective asset-management vehicle)'],
  ['IE_PLC', 'Investment company plc (Ireland)'],
  ['ILP', 'ILP (investment limited partnership, Ireland)'],
  ['CCF', 'CCF (common contractual fund)'],
  ['OEIC', 'OEIC (open-ended investment company)'],
  ['ACS', 'ACS (authorised contractual scheme, UK)'],
  ['UNIT_TRUST', 'Unit trust'],
  ['INVESTMENT_TRUST', 'Investment trust (UK closed-ended)'],
  ['SPC', 'Segregated portfolio company (SPC)'],
  ['LP', 'Limited partnership (LP)'],
  ['LLC', 'Limited liability company (LLC)'],
  ['UCITS_OTHER', 'UCITS, other legal form'],
  ['OTHER', 'Other'],
]);

/** Kinds of audit engagement. */
export const AUDIT_TYPES = entries([
  ['STATUTORY', 'Statutory audit'],
  ['REGULATORY', 'Regulatory audit'],
  ['INTERIM', 'Interim audit / review'],
  ['LIQUIDATION', 'Liquidation audit'],
  ['MERGER', 'Merger audit'],
  ['AGREED_UPON_PROCEDURES', 'Agreed-upon procedures'],
  ['SPECIAL_PURPOSE', 'Special-purpose audit'],
]);

/** Roles of recipients on a fund request (new recipients default to `Auditor`). */
export const RECIPIENT_ROLES = entries([
  ['Auditor', 'Auditor'],
  ['Manager', 'Manager'],
  ['SeniorManager', 'Senior Manager'],
  ['Partner', 'Partner'],
  ['TPAContact', 'TPA Contact'],
  ['ClientContact', 'Client Contact'],
  ['DeliveryTeam', 'Delivery Team'],
]);

/** Scope of the data requested from the administrator. */
export const JOB_TYPES = entries([
  ['FULL_AUDIT', 'Full audit: TB, holdings, transactions, share capital'],
  ['SOI_ONLY', 'SOI only: trial balance and holdings'],
  ['NAV_REVIEW', 'NAV review'],
  ['LIQUIDATION', 'Liquidation'],
]);

/** How the schedule of investments is reconciled. */
export const SOI_REC_TYPES = entries([
  ['FULL_REC', 'Full reconciliation'],
  ['SAMPLE_REC', 'Sample reconciliation'],
  ['NONE', 'None'],
]);

/** Investment strategy / asset class of the fund. */
export const FUND_SUB_TYPES = entries([
  ['EQUITY', 'Equity'],
  ['BOND', 'Bond (fixed income)'],
  ['MUNICIPAL_BOND', 'Municipal bond'],
  ['MONEY_MARKET', 'Money market'],
  ['MULTI_ASSET', 'Multi-asset'],
  ['FUND_OF_FUNDS', 'Fund of funds'],
  ['REAL_ESTATE', 'Real estate'],
  ['PRIVATE_EQUITY', 'Private equity'],
  ['PRIVATE_DEBT', 'Private debt'],
  ['HEDGE', 'Hedge fund'],
  ['INFRASTRUCTURE', 'Infrastructure'],
  ['COMMODITY', 'Commodity'],
]);

/** Which price of an instrument is used for valuation. */
export const PRICE_TYPES = entries([
  ['EVALUATED', 'Evaluated price'],
  ['BID', 'Bid'],
  ['ASK', 'Ask'],
  ['MID', 'Mid'],
  ['LAST', 'Last traded'],
  ['CLOSE', 'Official close'],
  ['NAV', 'Net asset value (NAV)'],
]);

/** Independent price and FX-rate vendors (external valuations). */
export const PRICE_SOURCES = entries([
  ['ICE', 'ICE Data Services'],
  ['BLOOMBERG', 'Bloomberg'],
  ['REFINITIV', 'Refinitiv (LSEG)'],
  ['MARKIT', 'Markit (S&P Global)'],
  ['ECB', 'ECB euro reference rates'],
  ['FED_H10', 'Federal Reserve H.10'],
  ['TPA', "Administrator's own price (TPA)"],
]);

/** Aggregation / consolidation of a fund group (`aggreg_consol_flag`). */
export const AGGREGATE_TYPES = entries([
  ['NONE', 'None'],
  ['AGGREGATION', 'Aggregation'],
  ['CONSOLIDATION', 'Consolidation'],
]);

/** FIHI work-paper level. */
export const FIHI_TYPES = entries([
  ['NONE', 'None'],
  ['STANDARD', 'Standard'],
  ['ENHANCED', 'Enhanced'],
]);

/** Yes/No flag (investment analyzer, connected audit). */
export const YES_NO = entries([
  ['Y', 'Yes'],
  ['N', 'No'],
]);

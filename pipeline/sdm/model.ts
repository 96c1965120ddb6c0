/**
 * The standard data model (SDM): canonical tables every TPA's files are turned into, the mapping
 * types that translate a TPA's own codes, and the standard codes those mappings may target.
 * Reference: DOMAIN.md sections 3 and 4. Money columns are in the fund's base currency unless the
 * column says `_local`; dates are ISO `YYYY-MM-DD`.
 */

/** SDM file types, in the order input files are listed. */
export const SDM_TYPES = ['trial_balance', 'holdings', 'transactions', 'share_capital', 'prices', 'fx_rates', 'fund_request'] as const;
export type SdmType = (typeof SDM_TYPES)[number];

/** Column definition of an SDM table. */
export interface SdmColumn {
  name: string;
  kind: 'text' | 'number' | 'date';
  required: boolean;
  /**
   * A required column a layout may leave out when it maps this other column instead: the value is
   * then derived from it (a holding's base value converted from its local value with the fund's FX
   * table; an FX rate quoted the other way inverted).
   */
  requiredUnless?: string;
}

const col = (name: string, kind: SdmColumn['kind'], required = false, requiredUnless?: string): SdmColumn =>
  requiredUnless ? { name, kind, required, requiredUnless } : { name, kind, required };

/** Canonical columns per SDM type (`required` = `*` in DOMAIN.md section 3). */
export const SDM_COLUMNS: Record<Exclude<SdmType, 'fund_request'>, SdmColumn[]> = {
  trial_balance: [
    col('fund_code', 'text', true),
    col('as_of', 'date', true),
    col('account_code', 'text', true),
    col('account_name', 'text'),
    col('currency', 'text'),
    col('balance_local', 'number'),
    col('balance_base', 'number', true),
  ],
  holdings: [
    col('fund_code', 'text', true),
    col('as_of', 'date', true),
    col('security_id', 'text', true),
    col('id_type', 'text'),
    col('security_name', 'text', true),
    col('instrument_type', 'text', true),
    col('quantity', 'number', true),
    col('price', 'number', true),
    col('price_currency', 'text'),
    col('fx_rate', 'number'),
    col('market_value_local', 'number'),
    col('market_value_base', 'number', true, 'market_value_local'),
    col('cost_base', 'number'),
    col('accrued_income_base', 'number'),
    col('country', 'text'),
  ],
  transactions: [
    col('fund_code', 'text', true),
    col('trade_date', 'date', true),
    col('settle_date', 'date'),
    col('transaction_type', 'text', true),
    col('security_id', 'text'),
    col('quantity', 'number'),
    col('price', 'number'),
    col('amount_local', 'number'),
    col('amount_base', 'number', true),
    col('currency', 'text'),
  ],
  share_capital: [
    col('fund_code', 'text', true),
    col('as_of', 'date', true),
    col('share_class', 'text', true),
    col('activity_type', 'text', true),
    col('shares', 'number', true),
    col('amount_base', 'number'),
    col('nav_per_share', 'number'),
  ],
  prices: [
    col('security_id', 'text', true),
    col('price_date', 'date', true),
    col('price', 'number', true),
    col('price_currency', 'text'),
    col('price_source', 'text', true),
    col('price_type', 'text'),
  ],
  fx_rates: [
    col('fund_code', 'text'),
    col('rate_date', 'date', true),
    col('currency', 'text', true),
    col('base_currency', 'text'),
    col('units_per_base', 'number', true, 'base_per_unit'),
    col('base_per_unit', 'number'),
    col('rate_source', 'text'),
  ],
};

/**
 * The SDM columns a layout of `sdmType` must find in a file, given the SDM columns it maps: the
 * required ones, less those the layout does not map because it maps their `requiredUnless`
 * alternative (a layout that maps both needs both).
 */
export function requiredColumns(sdmType: Exclude<SdmType, 'fund_request'>, mapped: Iterable<string>): SdmColumn[] {
  const m = new Set(mapped);
  return SDM_COLUMNS[sdmType].filter((c) => c.required && !(c.requiredUnless && !m.has(c.name) && m.has(c.requiredUnless)));
}

/** Mapping types a TPA's master mapping set consists of (one csv each). */
export const MAPPING_TYPES = ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping'] as const;
export type MappingType = (typeof MAPPING_TYPES)[number];

/** Code mapping types (csv `source_code,target_code[,description]`) and the SDM column each maps. */
export const CODE_MAPPING_COLUMN: Record<Exclude<MappingType, 'file_layout'>, { sdmType: SdmType; column: string }> = {
  account_mapping: { sdmType: 'trial_balance', column: 'account_code' },
  instrument_mapping: { sdmType: 'holdings', column: 'instrument_type' },
  transaction_mapping: { sdmType: 'transactions', column: 'transaction_type' },
  share_capital_mapping: { sdmType: 'share_capital', column: 'activity_type' },
};

/** Account classes of the standard chart (TB sign convention: debit positive, credit negative). */
export type AccountClass = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

/** Standard accounts an `account_mapping` may target, with their class. */
export const STANDARD_ACCOUNTS: Record<string, AccountClass> = {
  INVESTMENTS_AT_VALUE: 'asset',
  DERIVATIVES_ASSET: 'asset',
  CASH: 'asset',
  RECEIVABLES: 'asset',
  OTHER_ASSETS: 'asset',
  DERIVATIVES_LIABILITY: 'liability',
  PAYABLES: 'liability',
  OTHER_LIABILITIES: 'liability',
  CAPITAL: 'equity',
  DISTRIBUTABLE_EARNINGS: 'equity',
  INCOME_INTEREST: 'income',
  INCOME_DIVIDEND: 'income',
  INCOME_OTHER: 'income',
  EXPENSE_MANAGEMENT_FEE: 'expense',
  EXPENSE_OTHER: 'expense',
  REALIZED_GL: 'income',
  UNREALIZED_GL: 'income',
};

/** Standard instrument types an `instrument_mapping` may target. */
export const STANDARD_INSTRUMENTS = ['EQUITY', 'DEBT', 'FUND', 'DERIVATIVE', 'CASH_EQUIVALENT', 'REPO', 'LOAN', 'OTHER'] as const;

/** Standard transaction types a `transaction_mapping` may target. */
export const STANDARD_TRANSACTIONS = ['BUY', 'SELL', 'DIVIDEND', 'INTEREST', 'FEE', 'CORPORATE_ACTION', 'MATURITY', 'PAYDOWN', 'FX', 'OTHER'] as const;

/** Standard share-capital activity types a `share_capital_mapping` may target. */
export const STANDARD_SHARE_ACTIVITIES = ['OPENING', 'SUBSCRIPTION', 'REDEMPTION', 'SWITCH_IN', 'SWITCH_OUT', 'DISTRIBUTION_REINVESTED', 'CLOSING'] as const;

/** Allowed target codes per code mapping type. */
export const MAPPING_TARGETS: Record<Exclude<MappingType, 'file_layout'>, readonly string[]> = {
  account_mapping: Object.keys(STANDARD_ACCOUNTS),
  instrument_mapping: STANDARD_INSTRUMENTS,
  transaction_mapping: STANDARD_TRANSACTIONS,
  share_capital_mapping: STANDARD_SHARE_ACTIVITIES,
};

/**
 * Columns of a `file_layout.csv`: one row per source column of one SDM type.
 * `date_format` (e.g. `DD/MM/YYYY`, `YYYY-MM-DD`, `MM/DD/YYYY`) applies to date columns,
 * `decimal_separator` (`.` or `,`) and `thousands_separator` (empty, `,`, `.`, space) to number columns.
 */
export const FILE_LAYOUT_COLUMNS = ['sdm_type', 'source_column', 'sdm_column', 'date_format', 'decimal_separator', 'thousands_separator'] as const;

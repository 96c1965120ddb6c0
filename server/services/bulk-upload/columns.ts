/**
 * Columns of the bulk-upload CSV template, in template order. Names are the spec's bulk-upload row
 * fields (both documents, section 3). Dates accept `YYYY-MM-DD` or `DD/MM/YYYY`; PM/TE/SAD are
 * percentages of NAV (0-100); `alternateCodes` is a list separated by `;` or `|`.
 */
export const BULK_UPLOAD_COLUMNS = [
  'fundName', 'clientName', 'gfisClientCode', 'tpa', 'fundShortCode', 'alternateCodes',
  'fundType', 'fundSubType', 'jobType', 'auditType', 'fundAccountingStandard',
  'fundCountry', 'eyCountry', 'fundCurrency', 'engCode',
  'financialStartDate', 'financialEndDate', 'auditStartDate', 'navClosingDate', 'dataDueDate',
  'externalValuations', 'priceType1', 'priceType2', 'priceType3', 'priceType4',
  'priceSource1', 'priceSource2', 'priceSource3',
  'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping',
  'PM', 'TE', 'SAD', 'connectedAudit', 'RTTPlus', 'RTTMinus',
  'aggregConsolFlag', 'groupKey', 'groupWorkPapers', 'soiRecType', 'fihiType', 'hasInvestmentAnalyzer',
  'fundAdministratorContact', 'auditorEmail1', 'auditorEmail2', 'auditorEmail3', 'auditorEmail4',
  'ppedEmail', 'tpaMailBox', 'frTPAContact', 'taTPAMailbox', 'notes',
] as const;

export type BulkUploadColumn = (typeof BULK_UPLOAD_COLUMNS)[number];

/** Columns that must hold a value on every row. */
export const BULK_REQUIRED_COLUMNS: readonly BulkUploadColumn[] = [
  'fundName', 'clientName', 'tpa', 'fundShortCode', 'fundType', 'jobType', 'auditType',
  'fundAccountingStandard', 'fundCountry', 'fundCurrency', 'financialStartDate', 'financialEndDate',
  'dataDueDate', 'externalValuations', 'PM', 'TE', 'SAD',
];

/**
 * The bulk-upload CSV template (`GET fund-request/download`): every template column with one
 * filled example row. The example is the Goldman Sachs Bond Fund as filed on SEC Form N-PORT for
 * the period ended 2023-03-31 (series S000013795, LEI K5ZYN8ZUQE8S5OUPBU26); materiality
 * percentages and contacts are illustrative.
 */
import { csvText } from '../exports/csv.js';
import { BULK_UPLOAD_COLUMNS, type BulkUploadColumn } from './columns.js';

export const TEMPLATE_FILE_NAME = 'fund_request_bulk_upload_template.csv';

const EXAMPLE: Partial<Record<BulkUploadColumn, string>> = {
  fundName: 'Goldman Sachs Bond Fund',
  clientName: 'Goldman Sachs Trust',
  tpa: 'meridian_fund_services',
  fundShortCode: 'S000013795',
  alternateCodes: 'K5ZYN8ZUQE8S5OUPBU26',
  fundType: 'MUTUAL_FUND',
  fundSubType: 'BOND',
  jobType: 'FULL_AUDIT',
  auditType: 'STATUTORY',
  fundAccountingStandard: 'US_GAAP',
  fundCountry: 'US',
  eyCountry: 'US',
  fundCurrency: 'USD',
  financialStartDate: '2022-04-01',
  financialEndDate: '2023-03-31',
  auditStartDate: '2023-04-30',
  navClosingDate: '2023-03-31',
  dataDueDate: '2023-04-30',
  externalValuations: 'Y',
  priceType1: 'EVALUATED',
  priceSource1: 'ICE',
  PM: '1',
  TE: '0.75',
  SAD: '0.05',
  connectedAudit: 'N',
  soiRecType: 'FULL_REC',
  fihiType: 'NONE',
  hasInvestmentAnalyzer: 'N',
  auditorEmail1: 'auditor@example.com',
  notes: 'Dates as YYYY-MM-DD or DD/MM/YYYY; PM, TE and SAD in percent of NAV (0-100); alternate codes separated by ;',
};

/** The template as CSV text (the download CSV form of exports/csv.ts: UTF-8 with BOM, so spreadsheet programs read it as UTF-8). */
export function bulkTemplateCsv(): string {
  return csvText(BULK_UPLOAD_COLUMNS, [BULK_UPLOAD_COLUMNS.map((c) => EXAMPLE[c] ?? '')]);
}

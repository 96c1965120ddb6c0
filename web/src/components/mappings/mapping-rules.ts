/** Pure rules of the Custom Mapping tab (auditor spec 5, 6): name, client and reason checks, groups, funds and reset pairs. */
import type { AuditorFundRow } from '../../api/auditor-types';
import type { MappingMode, MappingRow } from '../../api/custom-mappings';

import { clientNameError, duplicateMappingMessage, mappingNameError, MESSAGES, normalizeStatus, reasonError } from '../../../../rules';

/** The mapping types a TPA's layout is described by (auditor spec 2.3). */
export const MAPPING_TYPES = ['file_layout', 'account_mapping', 'instrument_mapping', 'transaction_mapping', 'share_capital_mapping'] as const;

export const NAME_MESSAGE = MESSAGES.invalidName;
export const CLIENT_MESSAGE = MESSAGES.invalidClientName;
export const REASON_MESSAGE = MESSAGES.reasonRequired;

/** The upload form's fields. */
export interface MappingForm {
  administrator: string | null;
  mappingType: string | null;
  mode: MappingMode | null;
  name: string;
  clientName: string;
  rationale: string;
  customId: number | null;
}

/** Field errors of the form (empty when it may upload); a master upload needs only administrator and type. */
export function formErrors(f: MappingForm, mappings: readonly MappingRow[]): Partial<Record<'name' | 'clientName' | 'rationale' | 'customId', string>> {
  const out: Partial<Record<'name' | 'clientName' | 'rationale' | 'customId', string>> = {};
  if (f.mode === 'custom') {
    const nameError = mappingNameError(f.name);
    if (nameError) out.name = nameError;
    else if (mappings.some((m) => m.description === f.name)) out.name = duplicateMappingMessage(f.name);
    const clientError = clientNameError(f.clientName);
    if (clientError) out.clientName = clientError;
    const reason = reasonError(f.rationale);
    if (reason) out.rationale = reason;
  }
  if (f.mode === 'update-custom' && !f.customId) out.customId = 'Choose the custom mapping to update';
  return out;
}

/** The upload zone is enabled once administrator, type and mode are chosen and the fields are valid. */
export function canUpload(f: MappingForm, mappings: readonly MappingRow[]): boolean {
  return Boolean(f.administrator && f.mappingType && f.mode) && Object.keys(formErrors(f, mappings)).length === 0;
}

/** Mappings grouped by administrator name (groups and rows in name order). */
export function groupByAdministrator(mappings: readonly MappingRow[]): Array<{ administrator: string; code: string; mappings: MappingRow[] }> {
  const groups = new Map<string, { administrator: string; code: string; mappings: MappingRow[] }>();
  for (const m of mappings) {
    const g = groups.get(m.administrator.code) ?? { administrator: m.administrator.name, code: m.administrator.code, mappings: [] };
    g.mappings.push(m);
    groups.set(m.administrator.code, g);
  }
  return [...groups.values()].sort((a, b) => a.administrator.localeCompare(b.administrator));
}

/** Administrators that have mappings visible to the user (spec section 6). */
export function administratorsWithMappings(mappings: readonly MappingRow[]): Array<{ code: string; name: string }> {
  return groupByAdministrator(mappings).map((g) => ({ code: g.code, name: g.administrator }));
}

/** Funds listed for Apply & Rerun: those Pending, Open (Approved) or Closed. */
export function applicableFunds(rows: readonly AuditorFundRow[]): AuditorFundRow[] {
  return rows.filter((r) => ['Pending', 'Approved', 'Completed - Fund Closed'].includes(normalizeStatus(r.uploadStatus)));
}

/** The custom mapping of an administrator and type a fund holds, if any. */
export function customOf(fundId: number, mappings: readonly MappingRow[], administrator: string, type: string): MappingRow | undefined {
  return mappings.find((m) => m.kind === 'custom' && m.administrator.code === administrator && m.type === type && m.fundRequests.some((f) => f.id === fundId));
}

/** Reset pairs: only selected funds that hold a custom mapping of that administrator and type. */
export function resetPairs(
  fundIds: readonly number[],
  mappings: readonly MappingRow[],
  administrator: string,
  type: string,
): Array<{ fundRequestId: number; mappingId: number }> {
  return fundIds.flatMap((id) => {
    const m = customOf(id, mappings, administrator, type);
    return m ? [{ fundRequestId: id, mappingId: m.id }] : [];
  });
}

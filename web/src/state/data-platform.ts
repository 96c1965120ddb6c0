/**
 * Store of the auditor data platform: the active tab (so 'New request' can switch to Bulk Upload
 * and the download dialog can point at the queue), the last bulk upload result (kept while the user
 * moves between tabs) and a version counter that tells the listing to reload.
 */
import { proxy } from 'valtio';
import type { BulkResult } from '../api/auditor-types';

/** Tabs of the data platform, in the spec's order. */
export const DATA_PLATFORM_TABS = [
  { key: 'status', label: 'Status Reporting' },
  { key: 'listing', label: 'Funds Listing' },
  { key: 'bulk', label: 'Bulk Upload' },
  { key: 'downloads', label: 'Downloads Queue' },
  { key: 'mapping', label: 'Custom Mapping' },
] as const;
export type DataPlatformTab = (typeof DATA_PLATFORM_TABS)[number]['key'];

/** The tabs shown for a config (Custom Mapping only with `customMappings`). */
export function visibleTabs(customMappings: boolean): ReadonlyArray<(typeof DATA_PLATFORM_TABS)[number]> {
  return DATA_PLATFORM_TABS.filter((t) => t.key !== 'mapping' || customMappings);
}

/** Whether a string names a tab. */
export function isTabKey(value: string | null | undefined): value is DataPlatformTab {
  return DATA_PLATFORM_TABS.some((t) => t.key === value);
}

export interface DataPlatformState {
  tab: DataPlatformTab;
  bulk: { result: BulkResult | null; fileName: string | null; uploading: boolean; openFundId: number | null };
  /** Bumped when fund requests changed (bulk upload): the listing and report reload. */
  fundsVersion: number;
}

export const dataPlatform = proxy<DataPlatformState>({
  tab: 'status',
  bulk: { result: null, fileName: null, uploading: false, openFundId: null },
  fundsVersion: 0,
});

/** Shows a tab. */
export function showTab(tab: DataPlatformTab): void {
  dataPlatform.tab = tab;
}

/** Tells the listing and the report that fund requests changed. */
export function fundsChanged(): void {
  dataPlatform.fundsVersion++;
}

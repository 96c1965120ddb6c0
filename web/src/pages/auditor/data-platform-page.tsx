/**
 * Auditor data platform (`/data-platform`, auditor spec 2.3): tabs Status Reporting (default),
 * Funds Listing, Bulk Upload, Downloads Queue and Custom Mapping (only with config.customMappings).
 * The active tab is in the URL (`?tab=`, so it survives a reload and the back button); the store's
 * `showTab()` moves it.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { TabPanel, TabView } from 'primereact/tabview';
import { useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { usePageTitle } from '../../components/use-page-title';
import { dataPlatform, isTabKey, showTab, visibleTabs, type DataPlatformTab } from '../../state/data-platform';
import { navigate } from '../../state/navigation';
import { session } from '../../state/session';
import { BulkUpload } from './data-platform/bulk-upload';
import { CustomMapping } from './custom-mapping/custom-mapping';
import { DownloadsQueue } from './data-platform/downloads-queue';
import { FundsListing } from './data-platform/funds-listing';
import { StatusReporting } from './data-platform/status-reporting';

/** Tab labels of the data platform for a config. */
export function dataPlatformTabs(customMappings: boolean): string[] {
  return visibleTabs(customMappings).map((t) => t.label);
}

const PANELS: Record<DataPlatformTab, () => ReactNode> = {
  status: () => <StatusReporting />,
  listing: () => <FundsListing />,
  bulk: () => <BulkUpload />,
  downloads: () => <DownloadsQueue />,
  mapping: () => <CustomMapping />,
};

/** The data platform page. */
export function DataPlatformPage() {
  usePageTitle('Data Platform');
  const { config } = useSnapshot(session);
  const search = useSearch();
  const { tab: wanted } = useSnapshot(dataPlatform);
  const tabs = visibleTabs(Boolean(config?.customMappings));
  const fromUrl = new URLSearchParams(search).get('tab');
  // the URL decides the tab shown; showTab() (New request, the download dialog, tab clicks) moves the URL
  const tab: DataPlatformTab = isTabKey(fromUrl) && tabs.some((t) => t.key === fromUrl) ? fromUrl : 'status';
  const mounted = useRef(false);

  useEffect(() => {
    if (mounted.current && wanted !== tab) navigate(wanted === 'status' ? '/data-platform' : `/data-platform?tab=${wanted}`);
    // on arrival the URL wins over a tab remembered from an earlier visit
  }, [wanted]);
  useEffect(() => {
    mounted.current = true;
    dataPlatform.tab = tab;
  }, [tab]);

  const index = Math.max(
    0,
    tabs.findIndex((t) => t.key === tab),
  );
  return (
    <section className="fa-page fa-aud" aria-labelledby="fa-dp-title">
      <h1 id="fa-dp-title">Data Platform</h1>
      <TabView activeIndex={index} onTabChange={(e) => showTab(tabs[e.index]?.key ?? 'status')}>
        {tabs.map((t) => (
          <TabPanel key={t.key} header={t.label}>
            {PANELS[t.key]()}
          </TabPanel>
        ))}
      </TabView>
    </section>
  );
}

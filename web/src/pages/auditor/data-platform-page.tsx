/** Auditor data platform: tab strip (Custom Mapping only with config.customMappings) with empty panels. */
import { useSnapshot } from 'valtio';
import { TabPanel, TabView } from 'primereact/tabview';
import { EmptyPanel } from '../../components/empty-page';
import { usePageTitle } from '../../components/use-page-title';
import { session } from '../../state/session';

/** Tab labels of the data platform for a config. */
export function dataPlatformTabs(customMappings: boolean): string[] {
  const tabs = ['Status Reporting', 'Funds Listing', 'Bulk Upload', 'Downloads Queue'];
  return customMappings ? [...tabs, 'Custom Mapping'] : tabs;
}

export function DataPlatformPage() {
  usePageTitle('Data Platform');
  const { config } = useSnapshot(session);
  const tabs = dataPlatformTabs(Boolean(config?.customMappings));
  return (
    <section className="fa-page">
      <h1>Data Platform</h1>
      <TabView>
        {tabs.map((t) => (
          <TabPanel key={t} header={t}>
            <EmptyPanel title={t} />
          </TabPanel>
        ))}
      </TabView>
    </section>
  );
}

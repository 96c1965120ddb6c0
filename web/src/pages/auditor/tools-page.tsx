/**
 * WAM Tools (`/tools`, auditor spec 2.4): the Self-Onboarding wizard (config.sdmUpload), the
 * independent FX rates FX testing uses, and the external WAM Sampling Wizard link.
 */
import { useSnapshot } from 'valtio';
import { TabPanel, TabView } from 'primereact/tabview';
import { usePageTitle } from '../../components/use-page-title';
import { session } from '../../state/session';
import { FxRatesPanel } from './fx-rates-panel';
import { SelfOnboarding } from './self-onboarding/self-onboarding';

function SamplingWizardPanel({ url }: { url?: string | null }) {
  return (
    <div className="fa-panel">
      {url ? (
        <p>
          <a href={url} target="_blank" rel="noopener noreferrer">
            Open WAM Sampling Wizard <i className="pi pi-external-link" aria-hidden="true" />
            <span className="fa-sr-only"> (opens in a new window)</span>
          </a>{' '}
          - for Americas use only.
        </p>
      ) : (
        <p>WAM Sampling Wizard (for Americas use only): its address is not configured on this server (setting samplingWizardUrl).</p>
      )}
    </div>
  );
}

/** The WAM Tools page. */
export function ToolsPage() {
  usePageTitle('WAM Tools');
  const { config } = useSnapshot(session);
  const panels = [];
  if (config?.sdmUpload) {
    panels.push(
      <TabPanel key="sdm" header="Self-Onboarding">
        <SelfOnboarding />
      </TabPanel>,
    );
  }
  panels.push(
    <TabPanel key="fx" header="Independent FX rates">
      <FxRatesPanel />
    </TabPanel>,
  );
  panels.push(
    <TabPanel key="wizard" header="WAM Sampling Wizard (for Americas use only)" rightIcon="pi pi-external-link fa-tab-icon">
      <SamplingWizardPanel url={config?.samplingWizardUrl} />
    </TabPanel>,
  );
  return (
    <section className="fa-page fa-aud">
      <h1>WAM Tools</h1>
      <TabView>{panels}</TabView>
    </section>
  );
}

/**
 * Settings, Options tab: every setting with its value, where the value came from and its
 * environment variable (`GET /dev-tools/config`, `/dev-tools/config/sources`), and the pipeline's
 * input/output model (`GET /dev-tools/iomConfig`). Read-only: settings change in the config file,
 * the environment or the command line (docs/configuration.md).
 */
import { useCallback } from 'react';
import { fetchConfig, fetchConfigSources, fetchIomConfig } from '../../../api/dev-tools';
import { PanelState } from './panel-state';
import { useLoad } from './use-load';

const show = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The Options tab. */
export function OptionsTab() {
  const settings = useLoad(
    useCallback(async () => {
      const [values, sources] = await Promise.all([fetchConfig(), fetchConfigSources()]);
      return { values, sources };
    }, []),
  );
  const iom = useLoad(fetchIomConfig);
  return (
    <div className="fa-dev-options">
      <section aria-labelledby="fa-dev-settings">
        <h2 id="fa-dev-settings">Settings</h2>
        <PanelState state={settings} what="the settings">
          {({ values, sources }) => (
            <>
              <p className="fa-empty-text">
                Set in {sources.file}, in environment variables or on the command line (later ones win: {sources.precedence.join(' < ')}).
              </p>
              <table className="fa-dev-table" aria-label="Settings">
                <thead>
                  <tr>
                    <th>Setting</th>
                    <th>Value</th>
                    <th>Source</th>
                    <th>Environment variable</th>
                  </tr>
                </thead>
                <tbody>
                  {values.map((v) => (
                    <tr key={v.key}>
                      <td>
                        <code>{v.key}</code>
                      </td>
                      <td>{show(v.value)}</td>
                      <td>{sources.settings.find((s) => s.key === v.key)?.source ?? 'set by the program'}</td>
                      <td>
                        <code>{v.env}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </PanelState>
      </section>
      <section aria-labelledby="fa-dev-iom">
        <h2 id="fa-dev-iom">Input and output model</h2>
        <PanelState state={iom} what="the input and output model">
          {(m) => (
            <>
              <p>Stages: {m.stages.join(' → ')}</p>
              <table className="fa-dev-table" aria-label="Input types">
                <thead>
                  <tr>
                    <th>Input type</th>
                    <th>Required columns</th>
                    <th>Other columns</th>
                  </tr>
                </thead>
                <tbody>
                  {m.inputs.map((i) => (
                    <tr key={i.type}>
                      <td>
                        <code>{i.type}</code>
                      </td>
                      <td>
                        {i.columns
                          .filter((c) => c.required)
                          .map((c) => c.name)
                          .join(', ')}
                      </td>
                      <td>
                        {i.columns
                          .filter((c) => !c.required)
                          .map((c) => c.name)
                          .join(', ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p>Mapping types: {m.mappingTypes.join(', ')}</p>
              <p>Export files: {m.outputs.join(', ')}</p>
              <p>
                Limits: identification reads up to {m.limits.identificationLimitBytes.toLocaleString('en-US')} bytes per file; uploads up to{' '}
                {m.limits.maxUploadBytes.toLocaleString('en-US')} bytes.
              </p>
            </>
          )}
        </PanelState>
      </section>
    </div>
  );
}

/**
 * Settings, independent FX rates: the rate files price testing reads (`GET /dev-tools/fx-rates`),
 * each with the first and last date it covers, its number of dates, currencies and rates, so a
 * user can see whether a fund's period end is covered (an ECB history is loaded with
 * `fund-audit reference fx import FILE`).
 */
import { Button } from 'primereact/button';
import { fetchFxRates } from '../../../api/fx-rates';
import { PanelState } from './panel-state';
import { useLoad } from './use-load';
import { displayDate } from '../../../../../rules';

/** The FX rates panel. */
export function FxRatesPanel() {
  const files = useLoad(fetchFxRates);
  return (
    <section className="fa-card" aria-labelledby="fa-dev-fx">
      <div className="fa-card-head">
        <h2 id="fa-dev-fx">Independent FX rates</h2>
        <Button type="button" icon="pi pi-refresh" text rounded aria-label="Reload the FX rates" onClick={() => void files.reload()} />
      </div>
      <PanelState state={files} what="the FX rates">
        {(list) =>
          list.length === 0 ? (
            <p className="fa-empty-text">No rates loaded: price testing of foreign-currency positions is not performed</p>
          ) : (
            <table className="fa-dev-table" aria-label="Independent FX rates">
              <thead>
                <tr>
                  <th>File</th>
                  <th>Format</th>
                  <th>From</th>
                  <th>To</th>
                  <th>Dates</th>
                  <th>Currencies</th>
                  <th>Rates</th>
                </tr>
              </thead>
              <tbody>
                {list.map((f) => (
                  <tr key={f.file}>
                    <td>{f.file}</td>
                    <td>{f.format}</td>
                    <td>{displayDate(f.firstDate)}</td>
                    <td>{displayDate(f.lastDate)}</td>
                    <td>{f.dates}</td>
                    <td title={f.currencies.join(', ')}>{f.currencies.length}</td>
                    <td>{f.rates}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </PanelState>
    </section>
  );
}

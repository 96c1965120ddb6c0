/**
 * WAM Tools, Independent FX rates: the files of rates FX testing compares a TPA's rates with, in
 * order of preference (uploaded files first, then the ECB history shipped with the product, whose
 * last date is stated), the age limit and the default FX tolerance; upload a rates file in one of
 * the layouts listed, remove an uploaded one (with a confirmation). Rates are used from a fund's
 * next calculation on.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { ApiError } from '../../api/errors';
import { fetchFxRatesOverview, removeFxRates, uploadFxRates, type FxRateFile, type FxRatesOverview } from '../../api/fx-rates';
import { session } from '../../state/session';
import { displayDate, displayDateTime } from '../../../../rules';

type Outcome = { ok: true; text: string } | { ok: false; text: string };

const loadedText = (f: FxRateFile) =>
  `Loaded ${f.file} (${f.format}): ${f.rates.toLocaleString('en-US')} rates of ${f.currencies.length} currencies on ${f.dates} dates, ${displayDate(f.firstDate)} to ${displayDate(f.lastDate)}. FX testing uses them from each fund's next calculation.`;

/** The Independent FX rates panel. */
export function FxRatesPanel() {
  const [overview, setOverview] = useState<FxRatesOverview | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // the server loads and removes rates for the auditor roles only (they are audit evidence); a delivery team member reads them
  const canLoad = useSnapshot(session).user?.role !== 'DeliveryTeamMember';

  const reload = useCallback(async () => {
    try {
      setOverview(await fetchFxRatesOverview());
      setLoadError(null);
    } catch (err) {
      setLoadError(err instanceof ApiError ? err.message : 'The FX rates could not be loaded');
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setSending(true);
    setOutcome(null);
    try {
      const loaded = await uploadFxRates(file);
      // the list shows the new file by the time the message says it was loaded
      await reload();
      setOutcome({ ok: true, text: loadedText(loaded) });
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof ApiError ? err.message : `${file.name} could not be loaded` });
    } finally {
      setSending(false);
    }
  };
  const remove = async (file: string) => {
    await removeFxRates(file);
    setOutcome({ ok: true, text: `Removed ${file}` });
    await reload();
  };

  return (
    <div className="fa-aud-card" data-testid="fx-rates">
      <h3 style={{ marginTop: 0 }}>Independent FX rates</h3>
      {loadError && (
        <p className="fa-error-banner" role="alert">
          {loadError}
        </p>
      )}
      {overview && (
        <>
          <p>
            FX testing compares each currency's TPA rate with the latest independent rate dated on or before the fund's period end. A rate dated more than{' '}
            <strong>{overview.maxAgeBusinessDays} business days</strong> (Monday to Friday) before the period end is never used: that currency is NOT PERFORMED.
            A TPA rate within <strong>{overview.defaultTolerancePct}%</strong> of the independent rate is no exception (a fund's own FX tolerance, on its fund
            details, comes first).
          </p>
          {overview.shipped ? (
            <p data-testid="fx-shipped">
              Shipped with Fund Audit: the ECB euro reference rates <code>{overview.shipped.file}</code>, from {displayDate(overview.shipped.firstDate)} to{' '}
              <strong>{displayDate(overview.shipped.lastDate)}</strong>. For a later period end, or a currency the ECB does not publish, upload rates below.
            </p>
          ) : (
            <p>No ECB history is shipped with this build: upload rates below.</p>
          )}
          {canLoad && (
            <div className="fa-aud-toolbar">
              <Button
                type="button"
                label={sending ? 'Uploading...' : 'Upload rates file'}
                icon="pi pi-upload"
                disabled={sending}
                onClick={() => input.current?.click()}
              />
              <input
                ref={input}
                type="file"
                accept=".csv"
                hidden
                data-testid="fx-rates-input"
                onChange={(e) => {
                  void upload(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </div>
          )}
          <details style={{ margin: '.5rem 0' }}>
            <summary>Layouts a rates file may be in</summary>
            <ul>
              {overview.layouts.map((l) => (
                <li key={l}>
                  <code>{l}</code>
                </li>
              ))}
            </ul>
          </details>
          {outcome && (
            <p className={outcome.ok ? 'fa-success-banner' : 'fa-error-banner'} role={outcome.ok ? 'status' : 'alert'}>
              {outcome.text}
            </p>
          )}
          {overview.files.length === 0 ? (
            <p className="fa-empty-text">No rates loaded: FX testing is not performed for any currency</p>
          ) : (
            <table className="fa-plain-table" aria-label="Independent FX rate files">
              <thead>
                <tr>
                  <th style={{ textAlign: 'left' }}>File</th>
                  <th style={{ textAlign: 'left' }}>Layout</th>
                  <th style={{ textAlign: 'left' }}>Origin</th>
                  <th style={{ textAlign: 'left' }}>From</th>
                  <th style={{ textAlign: 'left' }}>To</th>
                  <th style={{ textAlign: 'right' }}>Dates</th>
                  <th style={{ textAlign: 'right' }}>Currencies</th>
                  <th style={{ textAlign: 'left' }}>Loaded at</th>
                  <th>
                    <span className="fa-sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.files.map((f) => (
                  <tr key={f.file}>
                    <td>{f.file}</td>
                    <td>{f.format}</td>
                    <td>{f.shipped ? 'Shipped' : 'Uploaded'}</td>
                    <td>{displayDate(f.firstDate)}</td>
                    <td>{displayDate(f.lastDate)}</td>
                    <td style={{ textAlign: 'right' }}>{f.dates}</td>
                    <td style={{ textAlign: 'right' }} title={f.currencies.join(', ')}>
                      {f.currencies.length}
                    </td>
                    <td>{displayDateTime(f.loadedAt)}</td>
                    <td>
                      {!f.shipped && canLoad && (
                        <Button
                          type="button"
                          icon="pi pi-trash"
                          text
                          rounded
                          severity="danger"
                          aria-label={`Remove ${f.file}`}
                          onClick={() => setRemoving(f.file)}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <ConfirmDialog
        visible={removing !== null}
        onHide={() => setRemoving(null)}
        header="Remove rates file"
        message={removing ? `Remove ${removing}? Funds calculated from now on no longer use its rates.` : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Remove"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        accept={() => removing && void remove(removing)}
      />
    </div>
  );
}

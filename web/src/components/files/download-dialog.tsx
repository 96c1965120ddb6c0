/**
 * The download dialog of the funds listing (auditor spec 2.3 "Downloads"): a checkbox list of
 * stages with 'All', 'Download', the CSV warning modal for stages that give CSV files, then the
 * confirmation 'Successfully added to Queue.' with a way to the Downloads Queue tab.
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { EXPORT_STAGES, requestExport } from '../../api/auditor';

/** Stages whose files are CSV (work papers are workbooks). */
export const CSV_STAGES = ['calculations', 'standardization', 'identification', 'import', 'fundRequest'];

/** The CSV warning of the spec. */
export const CSV_WARNING =
  'CSV files keep dates and numbers as plain text: a spreadsheet program may display date and number formats inaccurately because it follows your local settings.';

type Phase = 'choose' | 'csv-warning' | 'sending' | 'queued';

/** Download dialog for the selected funds. */
export function DownloadDialog({
  fundIds,
  visible,
  onHide,
  onShowQueue,
}: {
  fundIds: number[];
  visible: boolean;
  onHide: () => void;
  onShowQueue: () => void;
}) {
  const [stages, setStages] = useState<string[]>([]);
  const [phase, setPhase] = useState<Phase>('choose');

  useEffect(() => {
    if (visible) {
      setStages([]);
      setPhase('choose');
    }
  }, [visible]);

  const all = stages.length === EXPORT_STAGES.length;
  const toggle = (code: string, on: boolean) => setStages((s) => (on ? [...s, code] : s.filter((x) => x !== code)));
  const toggleAll = (on: boolean) => setStages(on ? EXPORT_STAGES.map((s) => s.code) : []);

  const send = async () => {
    setPhase('sending');
    try {
      await requestExport(
        fundIds,
        EXPORT_STAGES.map((s) => s.code).filter((c) => stages.includes(c)),
      );
      setPhase('queued');
    } catch {
      setPhase('choose');
    }
  };
  const onDownload = () => {
    if (stages.some((s) => CSV_STAGES.includes(s))) setPhase('csv-warning');
    else void send();
  };

  const footer =
    phase === 'queued' ? (
      <div className="fa-dialog-footer">
        <Button label="Close" outlined onClick={onHide} />
        <Button
          label="Go to Downloads Queue"
          onClick={() => {
            onHide();
            onShowQueue();
          }}
        />
      </div>
    ) : (
      <div className="fa-dialog-footer">
        <Button label="Cancel" outlined onClick={onHide} />
        <Button
          label="Download"
          icon="pi pi-download"
          disabled={stages.length === 0 || phase === 'sending'}
          loading={phase === 'sending'}
          onClick={onDownload}
        />
      </div>
    );

  return (
    <>
      <Dialog header="Download" visible={visible} onHide={onHide} footer={footer} style={{ width: 'min(460px, 95vw)' }} className="fa-aud" modal>
        {phase === 'queued' ? (
          <div className="fa-success-banner" role="status">
            <p style={{ margin: 0, fontWeight: 600 }}>Successfully added to Queue.</p>
            <p style={{ margin: '.25rem 0 0' }}>View the download queue tab to see what is available.</p>
          </div>
        ) : (
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend className="fa-muted" style={{ marginBottom: '.5rem' }}>
              Choose what to download for {fundIds.length} fund request{fundIds.length === 1 ? '' : 's'}:
            </legend>
            <div style={{ display: 'flex', alignItems: 'center', gap: '.5rem', padding: '.25rem 0', fontWeight: 600 }}>
              <Checkbox inputId="fa-stage-all" checked={all} onChange={(e) => toggleAll(Boolean(e.checked))} />
              <label htmlFor="fa-stage-all">All</label>
            </div>
            {EXPORT_STAGES.map((s) => (
              <div key={s.code} style={{ display: 'flex', alignItems: 'center', gap: '.5rem', padding: '.25rem 0 .25rem 1.25rem' }}>
                <Checkbox inputId={`fa-stage-${s.code}`} checked={stages.includes(s.code)} onChange={(e) => toggle(s.code, Boolean(e.checked))} />
                <label htmlFor={`fa-stage-${s.code}`}>{s.label}</label>
              </div>
            ))}
          </fieldset>
        )}
      </Dialog>
      <Dialog
        header="CSV files"
        visible={phase === 'csv-warning'}
        onHide={() => setPhase('choose')}
        className="fa-aud"
        style={{ width: 'min(440px, 95vw)' }}
        modal
        footer={
          <div className="fa-dialog-footer">
            <Button label="Cancel" outlined onClick={() => setPhase('choose')} />
            <Button label="I understand" onClick={() => void send()} autoFocus />
          </div>
        }
      >
        <p style={{ margin: 0 }}>
          <i className="pi pi-exclamation-triangle" style={{ color: '#d97706', marginRight: '.5rem' }} aria-hidden="true" />
          {CSV_WARNING}
        </p>
      </Dialog>
    </>
  );
}

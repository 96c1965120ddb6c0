/** Step 5 of the Self-Onboarding wizard: per-type circular progress while files are processed, then 'Manual Self-Onboarding finished'. */
import { Button } from 'primereact/button';
import type { SdmFile } from '../../../api/self-onboarding';
import { isProcessing, progressByType } from './wizard-state';

/** A circular progress ring with the share in its middle. */
export function ProgressRing({ label, done, total }: { label: string; done: number; total: number }) {
  const share = total ? done / total : 0;
  const r = 26;
  const c = 2 * Math.PI * r;
  return (
    <div className="fa-progress-ring" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
      <svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true">
        <circle cx="32" cy="32" r={r} fill="none" stroke="#e2e8f0" strokeWidth="6" />
        <circle
          cx="32"
          cy="32"
          r={r}
          fill="none"
          stroke="var(--fa-brand)"
          strokeWidth="6"
          strokeDasharray={`${share * c} ${c}`}
          transform="rotate(-90 32 32)"
        />
        <text x="32" y="37" textAnchor="middle" fontSize="14" fill="currentColor">
          {Math.round(share * 100)}%
        </text>
      </svg>
      <span>{label}</span>
      <span className="fa-muted">
        {done} / {total}
      </span>
    </div>
  );
}

/** The process step. */
export function ProcessStep({ files, tpa, onRestart }: { files: readonly SdmFile[]; tpa: string; onRestart: () => void }) {
  if (isProcessing(files)) {
    return (
      <div className="fa-aud-card" data-testid="sdm-processing">
        <h3 style={{ marginTop: 0 }}>Processing the files of {tpa}</h3>
        <div className="fa-progress-grid">
          {progressByType(files).map((p) => (
            <ProgressRing key={p.type} label={p.type} done={p.done} total={p.total} />
          ))}
        </div>
      </div>
    );
  }
  const failed = files.filter((f) => f.status === 'Error');
  return (
    <div className="fa-aud-card" data-testid="sdm-finished" style={{ textAlign: 'center' }}>
      <i className="pi pi-check-circle" style={{ fontSize: '3rem', color: '#15803d' }} aria-hidden="true" />
      <h3>Manual Self-Onboarding finished</h3>
      <p>
        {files.length - failed.length} file{files.length - failed.length === 1 ? '' : 's'} of {tpa} uploaded to the data platform
        {failed.length ? `, ${failed.length} with errors` : ''}. Follow the fund requests in the Funds Listing of the Data Platform.
      </p>
      {failed.length > 0 && (
        <ul style={{ textAlign: 'left', display: 'inline-block' }}>
          {failed.map((f) => (
            <li key={f.id} className="fa-field-error">
              {f.file_name}: {f.errors.join('; ')}
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button label="Start a new self-onboarding" icon="pi pi-refresh" outlined onClick={onRestart} />
      </div>
    </div>
  );
}

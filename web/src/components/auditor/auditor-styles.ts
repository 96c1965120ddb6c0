/**
 * Styles of the auditor area, injected once as a <style> element when the auditor chunk loads.
 * (esbuild writes the CSS of a lazily loaded chunk to its own file that nothing links, so the
 * auditor pages carry their rules in JS instead.)
 */
const CSS = `
.fa-aud h2 { font-size: 1.15rem; margin: 1.25rem 0 .5rem; }
.fa-aud .fa-muted { color: var(--fa-muted); }
.fa-aud-toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .5rem 0 .75rem; }
.fa-aud-toolbar .fa-grow { flex: 1; }
.fa-aud-card { background: var(--fa-surface); border: 1px solid var(--fa-border); border-radius: 8px; padding: 1rem 1.25rem; }
.fa-aud-cards { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); }
.fa-release { background: var(--fa-surface); border: 1px solid var(--fa-border); border-radius: 8px; padding: .75rem 1.25rem; margin-bottom: .75rem; }
.fa-release h3 { margin: .25rem 0 .5rem; font-size: 1.05rem; }
.fa-release h4 { margin: .75rem 0 .25rem; font-size: .95rem; color: var(--fa-muted); }
.fa-release ul { margin: 0; padding-left: 1.25rem; }
.fa-release li { margin: .2rem 0; line-height: 1.45; }
.fa-release code, .fa-aud code { background: #f1f5f9; padding: 0 .3rem; border-radius: 4px; }
.fa-count { display: flex; align-items: baseline; gap: .5rem; font-size: 1.05rem; }
.fa-count strong { font-size: 1.6rem; color: var(--fa-brand); }
.fa-donuts { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); margin-top: 1rem; }
.fa-donut-card h3 { margin: 0; font-size: 1.05rem; display: flex; align-items: center; gap: .5rem; }
.fa-donut-body { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
.fa-donut-canvas { position: relative; width: 180px; height: 180px; flex: none; }
.fa-donut-center { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; pointer-events: none; }
.fa-donut-center strong { font-size: 1.6rem; }
.fa-legend { list-style: none; margin: 0; padding: 0; flex: 1; min-width: 160px; }
.fa-legend li { display: flex; align-items: center; gap: .5rem; padding: .15rem 0; }
.fa-legend .fa-swatch { width: 12px; height: 12px; border-radius: 3px; flex: none; }
.fa-legend .fa-legend-name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.fa-subtabs { display: inline-flex; border: 1px solid var(--fa-border); border-radius: 6px; overflow: hidden; margin: .5rem 0; }
.fa-subtabs button { border: 0; background: none; padding: .3rem .8rem; cursor: pointer; font: inherit; color: var(--fa-muted); }
.fa-subtabs button[aria-selected="true"] { background: var(--fa-brand); color: #fff; }
.fa-status-star { color: #b91c1c; font-weight: 700; margin-left: .15rem; }
.fa-warning-banner { border-left: 4px solid #d97706; background: #fffbeb; padding: .5rem .75rem; margin: .5rem 0; border-radius: 4px; }
.fa-error-banner { border-left: 4px solid #b91c1c; background: #fef2f2; padding: .5rem .75rem; margin: .5rem 0; border-radius: 4px; }
.fa-error-banner ul { margin: .25rem 0; padding-left: 1.25rem; }
.fa-success-banner { border-left: 4px solid #15803d; background: #f0fdf4; padding: .5rem .75rem; margin: .5rem 0; border-radius: 4px; }
.fa-steps { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); margin: .75rem 0 1rem; }
.fa-step-number { display: inline-flex; width: 1.6rem; height: 1.6rem; border-radius: 50%; align-items: center; justify-content: center; background: var(--fa-brand); color: #fff; font-weight: 700; margin-right: .5rem; }
.fa-step h3 { margin: 0 0 .5rem; font-size: 1rem; display: flex; align-items: center; }
.fa-dropzone { border: 2px dashed var(--fa-border); border-radius: 8px; padding: 1.5rem; text-align: center; cursor: pointer; background: #f8fafc; }
.fa-dropzone.fa-over { border-color: var(--fa-brand); background: #eff6ff; }
.fa-dropzone:focus-visible { outline: 3px solid var(--fa-focus); }
.fa-field-grid { display: grid; grid-template-columns: minmax(160px, 220px) 1fr; gap: .4rem .75rem; align-items: center; }
.fa-field-grid label, .fa-field-grid .fa-field-label { color: var(--fa-muted); }
.fa-field-grid .p-dropdown, .fa-field-grid .p-inputtext, .fa-field-grid .p-chips { width: 100%; max-width: 420px; }
.fa-field-ro { padding: .35rem 0; min-height: 1.6rem; }
.fa-field-error { color: #b91c1c; font-size: .85rem; }
.fa-tag { display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 600; background: #e2e8f0; color: #1f2933; }
.fa-tag-done { background: #dcfce7; color: #166534; }
.fa-tag-error { background: #fee2e2; color: #991b1b; }
.fa-tag-running { background: #dbeafe; color: #1e40af; }
.fa-tag-pending { background: #fef3c7; color: #92400e; }
.fa-wiki-sections { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); }
.fa-wiki-sections ul { list-style: none; padding: 0; margin: 0; }
.fa-wiki-sections li { padding: .4rem 0; border-bottom: 1px solid #eef1f5; }
.fa-wiki-sections li:last-child { border-bottom: 0; }
.fa-wiki-sections h2 { margin-top: 0; }
.fa-wizard-steps { display: flex; gap: .5rem; flex-wrap: wrap; margin: .5rem 0 1rem; padding: 0; list-style: none; }
.fa-wizard-steps li { padding: .35rem .75rem; border-radius: 999px; border: 1px solid var(--fa-border); color: var(--fa-muted); }
.fa-wizard-steps li[aria-current="step"] { border-color: var(--fa-brand); background: #eff6ff; color: var(--fa-brand); font-weight: 600; }
.fa-chip-state { display: inline-flex; align-items: center; gap: .35rem; }
.fa-progress-grid { display: flex; gap: 1.5rem; flex-wrap: wrap; }
.fa-progress-ring { display: flex; flex-direction: column; align-items: center; gap: .35rem; }
.fa-dialog-footer { display: flex; justify-content: flex-end; gap: .5rem; }
/* multi-line notices (bulk validation, processing warnings) */
.p-toast .p-toast-detail { white-space: pre-line; }
.fa-aud .p-datatable .p-datatable-tbody > tr > td { padding: .45rem .6rem; }
.fa-aud .p-datatable .p-datatable-thead > tr > th { padding: .55rem .6rem; }
.fa-cm-mappings { width: 100%; border-collapse: collapse; }
.fa-cm-mappings th, .fa-cm-mappings td { text-align: left; vertical-align: middle; padding: .2rem .75rem .2rem 0; }
.fa-cm-mappings th, .fa-cm-mappings td:nth-child(3), .fa-cm-mappings td:nth-child(7), .fa-cm-mappings td:nth-child(8), .fa-cm-mappings td:last-child { white-space: nowrap; }
.fa-cm-mappings .fa-cm-id { display: inline-block; max-width: 12rem; overflow-wrap: break-word; }
.fa-cm-mappings td:last-child { padding-right: 0; }
.fa-cm-scroll { overflow-x: auto; }
`;

let injected = false;

/** Adds the auditor styles to the document once (no-op outside a browser). */
export function ensureAuditorStyles(): void {
  if (injected || typeof document === 'undefined') return;
  injected = true;
  const style = document.createElement('style');
  style.id = 'fa-auditor-styles';
  style.textContent = CSS;
  document.head.appendChild(style);
}

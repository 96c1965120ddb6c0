/**
 * The QA Validations popover of a file (auditor spec 2.3 "Files"): a cell showing red (failed
 * items, or a work paper on incomplete data), orange (warnings, checks not performed) or green
 * (all clear), opening a list of the items: name and difference (a calculation check, in fund
 * currency), or column and file (an unmapped code), or the error text; checks that could not be
 * performed are listed as such with their reason, as the work paper shows them NOT PERFORMED, and
 * a work paper on incomplete data names the standardizations that make it so. The groups come
 * from the server (`qa` of a file row); nothing is decided here.
 */
import { useRef } from 'react';
import { OverlayPanel } from 'primereact/overlaypanel';
import type { QaItem, QaValidations } from '../../api/auditor-types';
import { incomplete, incompleteFileText, qaItemText, qaSummary } from './qa-text';

const COLORS = { fail: '#b91c1c', warning: '#b45309', clear: '#15803d' } as const;

const ICONS = { fail: 'pi pi-times-circle', warning: 'pi pi-exclamation-triangle', notPerformed: 'pi pi-minus-circle' } as const;

function ItemList({ items, tone, title }: { items: QaItem[]; tone: 'fail' | 'warning' | 'notPerformed'; title: string }) {
  if (!items.length) return null;
  return (
    <section aria-label={title}>
      <h4 style={{ margin: '0 0 .25rem', fontSize: '.85rem' }}>{title}</h4>
      <ul style={{ listStyle: 'none', margin: '0 0 .5rem', padding: 0 }}>
        {items.map((item, n) => (
          <li key={n} style={{ display: 'flex', gap: '.4rem', alignItems: 'baseline', padding: '.1rem 0' }}>
            <i className={ICONS[tone]} style={{ color: COLORS[tone === 'notPerformed' ? item.status : tone], fontSize: '.8rem' }} aria-hidden="true" />
            <span>{qaItemText(item)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The QA cell of a file row; a button opening the popover when there is something to list. */
export function QaPopover({ qa, fileName }: { qa: QaValidations; fileName: string }) {
  const panel = useRef<OverlayPanel>(null);
  const summary = qaSummary(qa);
  if (!summary) return <span className="fa-empty-text">Not checked</span>;
  const dot = <i className="pi pi-circle-fill" style={{ color: COLORS[summary.tone], fontSize: '.7rem', marginRight: '.35rem' }} aria-hidden="true" />;
  if (summary.tone === 'clear')
    return (
      <span data-qa="clear">
        {dot}
        {summary.label}
      </span>
    );
  return (
    <>
      <button
        type="button"
        className="fa-linkbutton"
        data-qa={summary.tone}
        aria-haspopup="dialog"
        aria-label={`QA validations of ${fileName}: ${summary.label}`}
        onClick={(e) => panel.current?.toggle(e)}
      >
        {dot}
        {summary.label}
      </button>
      <OverlayPanel
        ref={panel}
        aria-label={`QA validations of ${fileName}`}
        style={{ maxWidth: '32rem' }}
        pt={{ content: { style: { maxHeight: '20rem', overflow: 'auto' } } }}
      >
        <div role="dialog" aria-label="QA Validations">
          {incomplete(qa) && (
            <section aria-label="Incomplete data">
              <h4 style={{ margin: '0 0 .25rem', fontSize: '.85rem' }}>Incomplete data</h4>
              <p style={{ margin: '0 0 .25rem', fontSize: '.85rem' }}>
                The checks ran on incomplete data; no conclusion can be signed. See the work paper's Exceptions.
              </p>
              <ul style={{ listStyle: 'none', margin: '0 0 .5rem', padding: 0 }}>
                {qa.incompleteData.map((f) => (
                  <li key={`${f.file}|${f.sdmType}`} style={{ display: 'flex', gap: '.4rem', alignItems: 'baseline', padding: '.1rem 0' }}>
                    <i className="pi pi-times-circle" style={{ color: COLORS.fail, fontSize: '.8rem' }} aria-hidden="true" />
                    <span>{incompleteFileText(f)}</span>
                  </li>
                ))}
                {qa.incompleteAdjustments.map((a) => (
                  <li key={`${a.adjustment}|${a.line}|${a.reason}`} style={{ display: 'flex', gap: '.4rem', alignItems: 'baseline', padding: '.1rem 0' }}>
                    <i className="pi pi-times-circle" style={{ color: COLORS.fail, fontSize: '.8rem' }} aria-hidden="true" />
                    <span>{a.reason}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <ItemList items={qa.failed} tone="fail" title="Failed" />
          <ItemList items={qa.warnings} tone="warning" title="Warnings" />
          <ItemList items={qa.notPerformed} tone="notPerformed" title="Not performed" />
        </div>
      </OverlayPanel>
    </>
  );
}

/**
 * The Adjustments tab of Fund details (delivery spec, Fund details: adjustment dialogs, rerun for
 * adjustments and for apportionment): every line of the fund's audit adjustments with its type,
 * pre/post-calc phase, booked-by-TPA flag, account, target, amount, author and time; 'New
 * adjustment' opens a menu of the types, each with its dialog; Edit and Delete per adjustment
 * (Delete asks first); 'Rerun adjustments' and 'Rerun apportionment' ask, then queue the fund's
 * calculations and work paper.
 */
import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import {
  ADJUSTMENT_RERUNS,
  ADJUSTMENT_TARGET_LABELS,
  ADJUSTMENT_TARGET_SHORT_LABELS,
  ADJUSTMENT_TYPE_RULES,
  ADJUSTMENT_TYPES,
  adjustmentAmount,
  type AdjustmentRerun,
  type AdjustmentType,
  displayDateTime,
} from '../../../../../rules';
import { fetchAdjustments, removeAdjustment, rerunAdjustments, type AdjustmentView } from '../../../api/adjustments';
import type { ApiError } from '../../../api/errors';
import { notify } from '../../../state/notifications';
import { AdjustmentDialog } from './adjustment-dialog';
import type { FundTabProps } from './tab-props';
import './adjustments.css';

const money = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function AdjustmentsTab({ fund }: FundTabProps) {
  const [rows, setRows] = useState<AdjustmentView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState<AdjustmentType | null>(null);
  const [editing, setEditing] = useState<AdjustmentView | null>(null);
  const [deleting, setDeleting] = useState<AdjustmentView | null>(null);
  const [rerun, setRerun] = useState<AdjustmentRerun | null>(null);
  const menu = useRef<Menu>(null);

  const load = useCallback(() => {
    fetchAdjustments(fund.id).then(
      (r) => (setRows(r), setError(null)),
      (err: ApiError) => setError(err.message),
    );
  }, [fund.id]);
  useEffect(load, [load]);

  const items: MenuItem[] = ADJUSTMENT_TYPES.map((t) => ({
    label: `${ADJUSTMENT_TYPE_RULES[t].label} (${ADJUSTMENT_TYPE_RULES[t].phase})`,
    command: () => setCreating(t),
  }));

  const remove = async (a: AdjustmentView) => {
    try {
      await removeAdjustment(fund.id, a.id);
      notify({ severity: 'success', detail: `Adjustment #${a.id} deleted`, life: 2400 });
    } catch (err) {
      notify({ severity: 'error', summary: 'The adjustment could not be deleted', detail: (err as ApiError).message });
    }
    load();
  };
  const queue = async (kind: AdjustmentRerun) => {
    try {
      await rerunAdjustments(fund.id, kind);
      notify({ severity: 'success', detail: `${ADJUSTMENT_RERUNS[kind].label}: calculations and work paper queued`, life: 2400 });
    } catch (err) {
      notify({ severity: 'error', summary: `${ADJUSTMENT_RERUNS[kind].label} failed`, detail: (err as ApiError).message });
    }
  };

  return (
    <div className="fa-adj">
      <div className="fa-fd-toolbar">
        <Button
          label="New adjustment"
          icon="pi pi-plus"
          size="small"
          aria-haspopup="menu"
          aria-controls="fa-adj-new"
          onClick={(e) => menu.current?.toggle(e)}
        />
        <Menu id="fa-adj-new" model={items} popup ref={menu} aria-label="New adjustment" />
        <Button label={ADJUSTMENT_RERUNS.adjustments.label} icon="pi pi-refresh" size="small" outlined onClick={() => setRerun('adjustments')} />
        <Button label={ADJUSTMENT_RERUNS.apportionment.label} icon="pi pi-refresh" size="small" outlined onClick={() => setRerun('apportionment')} />
      </div>
      {error && !rows ? (
        <div className="fa-error-banner" role="alert">
          {error} <Button label="Retry" text size="small" onClick={load} />
        </div>
      ) : !rows ? (
        <p className="fa-empty-text" role="status">
          Loading...
        </p>
      ) : !rows.length ? (
        <p className="fa-empty-text">No adjustments: add one with 'New adjustment'</p>
      ) : (
        <AdjustmentTable rows={rows} onEdit={setEditing} onDelete={setDeleting} />
      )}
      {(creating || editing) && (
        <AdjustmentDialog
          key={editing ? `edit-${editing.id}` : `new-${creating}`}
          fundId={fund.id}
          type={creating}
          editing={editing}
          onHide={() => (setCreating(null), setEditing(null))}
          onSaved={(a) => {
            notify({
              severity: 'success',
              detail: `Adjustment #${a.id} ${editing ? 'saved' : 'added'}: use '${ADJUSTMENT_RERUNS[ADJUSTMENT_TYPE_RULES[a.type].rerun].label}' to recalculate`,
              life: 5000,
            });
            setCreating(null);
            setEditing(null);
            load();
          }}
        />
      )}
      <ConfirmDialog
        visible={deleting !== null}
        onHide={() => setDeleting(null)}
        header="Delete adjustment"
        message={
          deleting
            ? `Delete adjustment #${deleting.id} (${ADJUSTMENT_TYPE_RULES[deleting.type].label}: ${deleting.description})? The trail keeps a record of it.`
            : ''
        }
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        defaultFocus="reject"
        accept={() => deleting && void remove(deleting)}
      />
      <ConfirmDialog
        visible={rerun !== null}
        onHide={() => setRerun(null)}
        header={rerun ? ADJUSTMENT_RERUNS[rerun].label : ''}
        message={rerun ? ADJUSTMENT_RERUNS[rerun].question : ''}
        icon="pi pi-refresh"
        acceptLabel="Rerun"
        rejectLabel="Cancel"
        defaultFocus="accept"
        accept={() => rerun && void queue(rerun)}
      />
    </div>
  );
}

/** One row per line, the adjustment's own cells on its first line. */
function AdjustmentTable({ rows, onEdit, onDelete }: { rows: AdjustmentView[]; onEdit: (a: AdjustmentView) => void; onDelete: (a: AdjustmentView) => void }) {
  return (
    <div className="fa-adj-scroll">
      <table className="fa-fd-table fa-adj-table" aria-label="Adjustments">
        <thead>
          <tr>
            <th>Adjustment</th>
            <th>Booked by TPA</th>
            <th>Account</th>
            <th>Target</th>
            <th className="fa-adj-num">Amount</th>
            <th>Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => {
            const rule = ADJUSTMENT_TYPE_RULES[a.type];
            const span = a.lines.length;
            return (
              <Fragment key={a.id}>
                {a.lines.map((l, i) => (
                  <tr key={i} className={i === span - 1 ? 'fa-adj-last' : undefined} data-adjustment={a.id}>
                    {i === 0 && (
                      <>
                        <td rowSpan={span}>
                          #{a.id} {rule.label}
                          <div className="fa-muted">{rule.phase}</div>
                          <div className="fa-adj-actions">
                            <Button icon="pi pi-pencil" text rounded size="small" aria-label={`Edit adjustment ${a.id}`} onClick={() => onEdit(a)} />
                            <Button
                              icon="pi pi-trash"
                              text
                              rounded
                              size="small"
                              severity="danger"
                              aria-label={`Delete adjustment ${a.id}`}
                              onClick={() => onDelete(a)}
                            />
                          </div>
                        </td>
                        <td rowSpan={span}>{a.bookedByTpa ? 'Yes' : 'No'}</td>
                      </>
                    )}
                    <td>
                      {l.account}
                      {l.description ? <div className="fa-muted">{l.description}</div> : null}
                    </td>
                    <td title={ADJUSTMENT_TARGET_LABELS[l.target]}>
                      {ADJUSTMENT_TARGET_SHORT_LABELS[l.target]}
                      {l.securityId ? <div className="fa-muted">{l.securityId}</div> : null}
                    </td>
                    <td className="fa-adj-num">{money(l.amount)}</td>
                    {i === 0 && (
                      <>
                        <td rowSpan={span}>
                          {a.description}
                          <div className="fa-muted">
                            {a.author}, {displayDateTime(a.updatedAt)}
                          </div>
                          <div className="fa-muted" title="Its size on the schedule of unadjusted differences">
                            Size {money(adjustmentAmount(a))}
                          </div>
                        </td>
                      </>
                    )}
                  </tr>
                ))}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

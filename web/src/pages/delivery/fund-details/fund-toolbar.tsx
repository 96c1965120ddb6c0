/**
 * The buttons of the delivery Fund details page (delivery spec section 2 "Fund details", 4 "Fund
 * details editing"): Edit (disabled while editing, saving, on a new fund or a deleted or closed
 * one), Save (only in edit mode, with changes), Discard / Cancel, Rerun workpapers (open funds
 * only; `POST /fund/rerun` with the Force run switch), Download options, Delete and More actions
 * (Review all work papers, `POST /fund/reviewall`; Db push 'set', `POST /fund/triggerdbpush`,
 * when the server enables it).
 */
import { useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { InputSwitch } from 'primereact/inputswitch';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { DETAILS_EDIT_DISABLED_STATUSES, fundDetailsActions } from '../../../../../rules';
import type { FundDetails } from '../../../api/auditor-types';
import { ApiError } from '../../../api/errors';
import { reviewAllWorkPapers, triggerDbPush } from '../../../api/fund-activity';
import { runFundAction } from '../../../api/funds';
import { notify } from '../../../state/notifications';

/** Statuses in which Edit stays disabled (the page leaves them for / anyway). */
export const EDIT_DISABLED_STATUSES = DETAILS_EDIT_DISABLED_STATUSES;

/** Props of the toolbar. */
export interface FundToolbarProps {
  fund: FundDetails;
  creating: boolean;
  editing: boolean;
  dirty: boolean;
  saving: boolean;
  dbPushEnabled: boolean;
  onEdit: () => void;
  onSave: () => void;
  onDiscard: () => void;
  onDownload: () => void;
  onDelete: () => void;
  /** After an action that changed the fund (fetch it again). */
  onChanged: () => void;
}

/** The page's buttons, as a toolbar. */
export function FundToolbar(p: FundToolbarProps) {
  const { fund, creating, editing } = p;
  const [forceRun, setForceRun] = useState(true);
  const more = useRef<Menu>(null);
  const can = fundDetailsActions(fund.status);
  const open = can.rerun;

  const act = async (what: string, call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      notify({ severity: 'success', detail: done, life: 2400 });
    } catch (err) {
      notify({ severity: 'error', summary: `${what} failed`, detail: (err as ApiError).message });
    }
    p.onChanged();
  };
  const moreItems: MenuItem[] = [
    {
      label: 'Review all work papers',
      icon: 'pi pi-check-square',
      command: () => void act('Review all work papers', () => reviewAllWorkPapers(fund.id), 'Every work paper is reviewed'),
    },
    ...(p.dbPushEnabled
      ? [
          {
            label: 'Db push',
            items: [{ label: 'set', icon: 'pi pi-database', command: () => void act('Db push', () => triggerDbPush(fund.id), `Db push of ${fund.name} done`) }],
          },
        ]
      : []),
  ];

  return (
    <div className="fa-fd-toolbar" role="toolbar" aria-label="Fund actions">
      {/* a stable wrapper: the tooltip of a disabled button next to it moves DOM nodes */}
      <span className="fa-fd-edit">
        <Button label="Edit" icon="pi pi-pencil" disabled={editing || creating || p.saving || !can.edit} onClick={p.onEdit} />
        <Button label="Save" icon="pi pi-check" disabled={!editing || !p.dirty} loading={p.saving} onClick={p.onSave} />
        {editing && <Button label={creating ? 'Cancel' : 'Discard'} outlined onClick={p.onDiscard} />}
      </span>
      {!creating && (
        <>
          <Button
            label="Rerun workpapers"
            icon="pi pi-replay"
            outlined
            disabled={!open}
            tooltip={open ? undefined : 'Only open funds can be rerun'}
            tooltipOptions={{ showOnDisabled: true }}
            onClick={() => void act('Rerun', () => runFundAction('rerun', [fund.id], null, { forceRun, quiet: true }), 'Rerun queued')}
          />
          <span className="fa-fd-force">
            <InputSwitch inputId="fa-fd-force-run" checked={forceRun} onChange={(e) => setForceRun(Boolean(e.value))} />
            <label htmlFor="fa-fd-force-run">Force run</label>
          </span>
          <Button label="Download options" icon="pi pi-download" outlined onClick={p.onDownload} />
          <Button label="Delete" icon="pi pi-trash" severity="danger" outlined disabled={!can.remove} onClick={p.onDelete} />
          <Button label="More actions" icon="pi pi-ellipsis-v" text aria-haspopup="menu" aria-controls="fa-fd-more" onClick={(e) => more.current?.toggle(e)} />
          <Menu id="fa-fd-more" model={moreItems} popup ref={more} aria-label="More actions" />
        </>
      )}
    </div>
  );
}

/**
 * The listing's action buttons (delivery spec sections 2 and 4), enabled by the selection's
 * statuses (rules module): Reset, Delete, Download available work papers, Work paper actions (Rerun,
 * review status: mark the work papers reviewed or not reviewed), Data
 * actions (data-requested status), Fund actions (Open, Close, Issue, Pause, Decline), Undo delete,
 * and Export of the listing to xlsx.
 */
import { useRef } from 'react';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import type { FundAction } from '../../../api/funds';
import { DATA_REQUEST_LABELS, DATA_REQUEST_STATUSES, deliveryActionStates, isDataRequestEnabled, type DataRequestStatus } from '../../../../../rules';

/** What the enabling rules look at in a selected fund. */
export interface SelectedFund {
  status: string | null | undefined;
  dataRequestStatus?: string | null;
}

export interface ActionBarProps {
  selection: readonly SelectedFund[];
  busy: boolean;
  exporting: boolean;
  onAction: (action: FundAction) => void;
  onDataStatus: (value: DataRequestStatus, label: string) => void;
  onWorkPaperReview: (reviewed: boolean) => void;
  onDownloadWorkPapers: () => void;
  onExport: () => void;
}

/** A button opening a popup menu. */
function MenuButton({ id, label, icon, items, disabled }: { id: string; label: string; icon: string; items: MenuItem[]; disabled: boolean }) {
  const menu = useRef<Menu>(null);
  return (
    <>
      <Menu model={items} popup ref={menu} id={id} />
      <Button
        type="button"
        label={label}
        icon={icon}
        iconPos="right"
        size="small"
        outlined
        disabled={disabled}
        aria-haspopup="menu"
        aria-controls={id}
        onClick={(e) => menu.current?.toggle(e)}
      />
    </>
  );
}

/** The action buttons on the selected funds. */
export function ActionBar({ selection, busy, exporting, onAction, onDataStatus, onWorkPaperReview, onDownloadWorkPapers, onExport }: ActionBarProps) {
  const can = deliveryActionStates(selection.map((f) => f.status));
  const off = (enabled: boolean) => busy || !enabled;
  const fundItems: MenuItem[] = [
    { label: 'Open', disabled: !can.open, command: () => onAction('open') },
    { label: 'Close', disabled: !can.close, command: () => onAction('close') },
    { label: 'Issue', disabled: !can.issue, command: () => onAction('issue') },
    { label: 'Pause', disabled: !can.pause, command: () => onAction('pause') },
    { label: 'Decline', disabled: !can.decline, command: () => onAction('decline') },
  ];
  const workPaperItems: MenuItem[] = [
    { label: 'Rerun', disabled: !can.rerun, command: () => onAction('rerun') },
    { label: 'Mark reviewed', disabled: !can.review, command: () => onWorkPaperReview(true) },
    { label: 'Mark not reviewed', disabled: !can.review, command: () => onWorkPaperReview(false) },
  ];
  const dataItems: MenuItem[] = DATA_REQUEST_STATUSES.map((value) => ({
    label: DATA_REQUEST_LABELS[value],
    disabled: !isDataRequestEnabled(selection, value),
    command: () => onDataStatus(value, DATA_REQUEST_LABELS[value]),
  }));
  const anyFund = selection.length > 0;

  return (
    <div className="fa-action-bar" role="toolbar" aria-label="Actions on selected funds">
      <Button type="button" label="Reset" icon="pi pi-replay" size="small" outlined disabled={off(can.reset)} onClick={() => onAction('reset')} />
      <Button
        type="button"
        label="Delete"
        icon="pi pi-trash"
        size="small"
        severity="danger"
        outlined
        disabled={off(can.remove)}
        onClick={() => onAction('remove')}
      />
      <Button
        type="button"
        label="Download available work papers"
        icon="pi pi-download"
        size="small"
        outlined
        disabled={off(can.downloadWorkPapers)}
        onClick={onDownloadWorkPapers}
      />
      <MenuButton id="fa-menu-workpapers" label="Work paper actions" icon="pi pi-chevron-down" items={workPaperItems} disabled={off(can.workPaperActions)} />
      <MenuButton id="fa-menu-data" label="Data actions" icon="pi pi-chevron-down" items={dataItems} disabled={off(can.dataActions)} />
      <MenuButton id="fa-menu-fund" label="Fund actions" icon="pi pi-chevron-down" items={fundItems} disabled={busy || !anyFund} />
      <Button type="button" label="Undo delete" icon="pi pi-undo" size="small" outlined disabled={off(can.undoDelete)} onClick={() => onAction('undoDelete')} />
      <span className="fa-action-spacer" />
      <Button type="button" label="Export" icon="pi pi-file-excel" size="small" loading={exporting} onClick={onExport} />
    </div>
  );
}

/**
 * Actions on the selected files of an Input files list: assign to a user (or nobody), set the
 * resolution action (Unidentified, Re-requested, Ignored, Manually handled, Closed), remove from
 * the list after confirmation.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { confirmDialog } from 'primereact/confirmdialog';
import { Dropdown } from 'primereact/dropdown';
import { ISSUE_ACTIONS, type IssueAction } from '../../../api/delivery-files';

/** 'Nobody' in the assignee choice (clears the assignment). */
export const UNASSIGNED = 'none';

export interface IssueToolbarProps {
  /** Distinguishes the ids of two toolbars on one page. */
  idPrefix: string;
  selected: number;
  users: ReadonlyArray<{ value: string; label: string }>;
  busy: boolean;
  onAssign: (userId: number | null) => void;
  onAction: (action: IssueAction) => void;
  onRemove: () => void;
}

/** Assign, set action and remove for the selection. */
export function IssueToolbar({ idPrefix, selected, users, busy, onAssign, onAction, onRemove }: IssueToolbarProps) {
  const [assignee, setAssignee] = useState<string | null>(null);
  const [action, setAction] = useState<IssueAction | null>(null);
  const none = selected === 0 || busy;
  const confirmRemove = () =>
    confirmDialog({
      header: 'Remove files',
      message: `Remove ${selected === 1 ? 'this file' : `these ${selected} files`} from the list? The imported file is kept.`,
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: 'Remove',
      rejectLabel: 'Cancel',
      acceptClassName: 'p-button-danger',
      defaultFocus: 'reject',
      accept: onRemove,
    });
  return (
    <div className="fa-toolbar" role="toolbar" aria-label="Actions on selected files">
      <span className="fa-muted">{selected} selected</span>
      <label htmlFor={`${idPrefix}-assignee`}>Assign to</label>
      <Dropdown
        inputId={`${idPrefix}-assignee`}
        value={assignee}
        options={[{ value: UNASSIGNED, label: 'Nobody' }, ...users]}
        onChange={(e) => setAssignee(e.value as string)}
        placeholder="Choose a user"
        filter
        className="fa-assignee-select"
      />
      <Button
        type="button"
        label="Assign"
        size="small"
        outlined
        disabled={none || !assignee}
        onClick={() => assignee && onAssign(assignee === UNASSIGNED ? null : Number(assignee))}
      />
      <label htmlFor={`${idPrefix}-action`}>Action</label>
      <Dropdown
        inputId={`${idPrefix}-action`}
        value={action}
        options={ISSUE_ACTIONS.map((a) => ({ value: a, label: a }))}
        onChange={(e) => setAction(e.value as IssueAction)}
        placeholder="Choose an action"
        className="fa-action-select"
      />
      <Button type="button" label="Set action" size="small" outlined disabled={none || !action} onClick={() => action && onAction(action)} />
      <Button type="button" label="Remove" icon="pi pi-trash" size="small" severity="danger" outlined disabled={none} onClick={confirmRemove} />
    </div>
  );
}

/**
 * The unsaved-changes question (both spec documents: Fund details): 'You have made changes' /
 * 'They will be lost if not saved', with Discard changes and Keep editing (the default, so Enter
 * keeps the edits).
 */
import { ConfirmDialog } from 'primereact/confirmdialog';

/** Shown while `visible`; `onDiscard` drops the changes and goes on, `onKeep` closes the question. */
export function UnsavedChangesDialog({ visible, onDiscard, onKeep }: { visible: boolean; onDiscard: () => void; onKeep: () => void }) {
  return (
    <ConfirmDialog
      visible={visible}
      onHide={onKeep}
      header="You have made changes"
      message="They will be lost if not saved"
      icon="pi pi-exclamation-triangle"
      acceptLabel="Discard changes"
      rejectLabel="Keep editing"
      defaultFocus="reject"
      accept={onDiscard}
      reject={onKeep}
    />
  );
}

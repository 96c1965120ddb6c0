/**
 * The listing's actions on selected funds: status actions (a delete asks for confirmation first),
 * data-requested status, work paper and 'Download all' export requests, and the xlsx export.
 * After a status action, funds that did not move are marked '*' and the spec's warning shows for
 * 10 s; the page is reloaded.
 */
import type { DataRequestStatus } from '../../../../../rules/statuses';
import { useState } from 'react';
import { confirmDialog } from 'primereact/confirmdialog';
import { ALL_EXPORT_STAGES, requestExport } from '../../../api/delivery-files';
import type { ActionResult, FundListingRow } from '../../../api/delivery-types';
import { DURATION } from '../../../api/errors';
import { setWorkPaperReview } from '../../../api/fund-activity';
import { changeDataRequestedStatus, exportListing, runFundAction, type FundAction } from '../../../api/funds';
import { fundListing, listingQuery, loadListing, setStarred } from '../../../state/fund-listing';
import { notify } from '../../../state/notifications';
import { session } from '../../../state/session';
import { deliveryDeleteConfirmation as deleteConfirmation, MESSAGES } from '../../../../../rules';

/** The spec's bulk status warning (section 8). */
export const UNCHANGED_WARNING = MESSAGES.unchangedWarning;
/** Success text of a queued export (auditor spec 2.3), shown for 4 s. */
export const QUEUED_MESSAGE = MESSAGES.queued;

/** Action handlers for the Dashboard, bound to the current selection. */
export function useFundActions(selection: readonly FundListingRow[], setSelection: (rows: FundListingRow[]) => void) {
  const [busy, setBusy] = useState(false);
  const [exporting, setExporting] = useState(false);
  const ids = selection.map((r) => r.id);

  const afterAction = async (res: ActionResult) => {
    const unchanged = res.funds.filter((f) => f.isStatusUnChanged).map((f) => f.id);
    setStarred(unchanged);
    if (unchanged.length) notify({ severity: 'warn', detail: res.warning || UNCHANGED_WARNING, life: DURATION.default });
    setSelection(
      selection.map((s) => {
        const f = res.funds.find((x) => x.id === s.id);
        return f ? { ...s, status: f.status, statusLabel: f.statusLabel } : s;
      }),
    );
    await loadListing();
  };

  const run = async (call: () => Promise<ActionResult>) => {
    setBusy(true);
    try {
      await afterAction(await call());
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(false);
    }
  };

  const onAction = (action: FundAction) => {
    if (!ids.length) return;
    const requestedBy = session.user?.fullName ?? null;
    const go = () => void run(() => runFundAction(action, ids, requestedBy));
    if (action === 'remove') {
      confirmDialog({
        header: 'Delete fund requests',
        message: deleteConfirmation(ids.length),
        icon: 'pi pi-exclamation-triangle',
        acceptLabel: 'Delete',
        rejectLabel: 'Cancel',
        acceptClassName: 'p-button-danger',
        defaultFocus: 'reject',
        accept: go,
      });
      return;
    }
    go();
  };

  const onDataStatus = (value: DataRequestStatus) => {
    if (ids.length) void run(() => changeDataRequestedStatus(ids, value));
  };

  /** Work paper actions, review status: marks the selected funds' work papers reviewed or not. */
  const onWorkPaperReview = async (reviewed: boolean) => {
    if (!ids.length) return;
    setBusy(true);
    try {
      const res = await setWorkPaperReview(ids, reviewed);
      notify({
        severity: 'success',
        detail: `${res.files.length} work paper${res.files.length === 1 ? '' : 's'} marked ${reviewed ? 'reviewed' : 'not reviewed'}`,
        life: DURATION.success,
      });
      await loadListing();
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(false);
    }
  };

  const queueExport = async (fundIds: number[], stages: readonly string[], options?: { excludeDisabledVisualizations?: boolean }) => {
    try {
      await requestExport(fundIds, stages, options);
      notify({ severity: 'success', detail: QUEUED_MESSAGE, life: DURATION.downloadRequest });
    } catch {
      // the default error notification was shown
    }
  };

  const onDownloadWorkPapers = () => void queueExport(ids, ['visualization'], { excludeDisabledVisualizations: true });
  const onDownloadAll = (row: FundListingRow) => void queueExport([row.id], ALL_EXPORT_STAGES);

  const onExport = async () => {
    setExporting(true);
    try {
      await exportListing(listingQuery(fundListing));
    } finally {
      setExporting(false);
    }
  };

  return {
    busy,
    exporting,
    onAction,
    onDataStatus,
    onWorkPaperReview: (reviewed: boolean) => void onWorkPaperReview(reviewed),
    onDownloadWorkPapers,
    onDownloadAll,
    onExport: () => void onExport(),
  };
}

/**
 * Fund details (`/fund/{id}` and `/fund/create`, delivery spec section 2 "Fund details"): the
 * fund's fields on the left (read-only until Edit; a new fund starts in edit mode; what may change
 * comes from the server's `fund.editable`, comments and recipients always), and the tabs Files,
 * Processes, Logs, Errors, Trail, Adjustments (audit adjustments and their reruns), Chases (the fund's chases and 'Return fund to TPA'), Fund Codes, Children (n) when any, Comments, Recipients,
 * Aggregation (when enabled) and Mappings (when the fund has an administrator), with a reload
 * control. Save validates (`POST /fund/validate`) then saves (`POST /fund`); errors show as 'You
 * have validation errors' with 'Duplicate Fund' links. Delete asks first and goes back to /;
 * leaving with unsaved changes asks first; a fund found closed or deleted sends the user to /.
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { TabPanel, TabView } from 'primereact/tabview';
import { useSnapshot } from 'valtio';
import type { Nrd, Recipient } from '../../api/auditor-types';
import { ApiError } from '../../api/errors';
import { runFundAction } from '../../api/funds';
import { ensureAuditorStyles } from '../../components/auditor/auditor-styles';
import { UnsavedChangesDialog } from '../../components/unsaved-changes-dialog';
import { usePageTitle } from '../../components/use-page-title';
import { auditorNrd, loadAuditorNrd } from '../../state/auditor-nrd';
import { navigate, setLeaveGuard } from '../../state/navigation';
import { notify } from '../../state/notifications';
import { session } from '../../state/session';
import { DownloadDialog } from '../../components/files/download-dialog';
import { FieldRow } from '../../components/fund-details/field-row';
import { ValidationErrors } from '../../components/fund-details/validation-errors';
import { DELIVERY_COMMENT_FIELDS } from './fund-details/delivery-fields';
import { AdjustmentsTab } from './fund-details/adjustments-tab';
import { ChasesTab } from './chasing/chases-tab';
import { ErrorsTab } from './fund-details/errors-tab';
import { FilesTab } from './fund-details/files-tab';
import { FundFormPanel } from './fund-details/fund-form-panel';
import { FundToolbar } from './fund-details/fund-toolbar';
import { LogsTab } from './fund-details/logs-tab';
import { ProcessesTab } from './fund-details/processes-tab';
import { RecipientsEditor } from './fund-details/recipients-editor';
import { ChildrenList } from '../../components/fund-details/children-list';
import { AggregationTab, FundCodesTab, MappingsTab } from './fund-details/side-tabs';
import { TrailTab } from './fund-details/trail-tab';
import { useFundDetails, type FundTarget } from './fund-details/use-fund-details';
import './delivery.css';

/** Statuses that leave nothing to do on the page: back to /. */
const GONE = ['Completed - Fund Closed', 'Deleted'];

/** Delete confirmation (spec section 8). */
export const DELETE_QUESTION = 'This will permanently remove this fund request, are you REALLY sure?';

/** `/fund/create` (no id, or 'create'), a fund id, or null for a path that is not one. */
function targetOf(id: string | undefined): FundTarget {
  if (!id || id === 'create') return 'new';
  return /^\d+$/.test(id) && Number(id) > 0 ? Number(id) : null;
}

export function FundDetailsPage({ id }: { id?: string }) {
  ensureAuditorStyles();
  const target = targetOf(id);
  const creating = target === 'new';
  const { config, user } = useSnapshot(session);
  const { nrd } = useSnapshot(auditorNrd);
  const f = useFundDetails(target);
  const { fund, draft } = f;
  const [editing, setEditing] = useState(creating);
  const [asking, setAsking] = useState<null | (() => void)>(null);
  const [deleting, setDeleting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  usePageTitle(creating ? 'New fund request' : fund ? `Fund details - ${fund.name}` : 'Fund details');

  useEffect(() => void loadAuditorNrd(), []);
  useEffect(() => setEditing(creating), [id, creating]);
  // a closed or deleted fund has nothing left to do here
  useEffect(() => {
    if (fund && !creating && GONE.includes(fund.status)) {
      notify({ severity: 'info', detail: `${fund.name} is ${fund.statusLabel}`, life: 4000 });
      navigate('/');
    }
  }, [fund, creating]);
  // closing the tab or reloading with unsaved changes asks the browser's question
  useEffect(() => {
    if (!f.dirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [f.dirty]);
  // the sider asks the same question before leaving with unsaved changes
  useEffect(() => setLeaveGuard(f.dirty ? (proceed) => (setAsking(() => proceed), true) : null), [f.dirty]);

  /** Runs `then` at once, or after confirming that unsaved changes may be lost. */
  const guard = (then: () => void) => (f.dirty ? setAsking(() => then) : then());
  const open = (other: number) => guard(() => navigate(`/fund/${other}`));

  if (target === null) return <Problem message={`No such fund request with id: ${id}`} />;
  if (f.loadError && !fund) return <Problem message={f.loadError.message} onRetry={f.loadError.status === 404 ? undefined : f.reload} />;
  if (!fund || !draft)
    return (
      <p className="fa-page-loading" role="status">
        Loading fund details...
      </p>
    );

  const save = async () => {
    const saved = await f.save();
    if (!saved) {
      // the errors themselves are listed above the form; the notification does not repeat them
      notify({ severity: 'error', summary: 'Action failed', detail: 'Fix the errors listed above the form, then save again.', life: 10_000 });
      return;
    }
    if (creating) {
      notify({ severity: 'success', detail: `Fund request ${saved.name} created`, life: 5000 });
      navigate(`/fund/${saved.id}`, { replace: true });
    } else {
      notify({ severity: 'success', detail: 'Fund request saved', life: 5000 });
      setEditing(false);
    }
  };
  const discard = () => {
    if (creating) return guard(() => navigate('/'));
    f.discard();
    setEditing(false);
  };
  const remove = async () => {
    setDeleting(false);
    try {
      await runFundAction('remove', [fund.id], user?.fullName ?? null, { quiet: true });
      notify({ severity: 'success', detail: `${fund.name} deleted`, life: 2400 });
      navigate('/');
    } catch (err) {
      notify({ severity: 'error', summary: 'Delete failed', detail: (err as ApiError).message });
    }
  };
  const tabProps = { fund, reload: f.reload };
  const nrdList = nrd as Nrd | null;
  const panels = [
    !creating && (
      <TabPanel key="files" header="Files">
        <FilesTab {...tabProps} />
      </TabPanel>
    ),
    !creating && (
      <TabPanel key="processes" header="Processes">
        <ProcessesTab {...tabProps} />
      </TabPanel>
    ),
    !creating && (
      <TabPanel key="logs" header="Logs">
        <LogsTab {...tabProps} />
      </TabPanel>
    ),
    !creating && (
      <TabPanel key="errors" header="Errors">
        <ErrorsTab {...tabProps} />
      </TabPanel>
    ),
    !creating && (
      <TabPanel key="trail" header="Trail">
        <TrailTab {...tabProps} />
      </TabPanel>
    ),
    !creating && (
      <TabPanel key="adjustments" header="Adjustments">
        <AdjustmentsTab {...tabProps} />
      </TabPanel>
    ),
    !creating && (
      <TabPanel key="chases" header="Chases">
        <ChasesTab {...tabProps} />
      </TabPanel>
    ),
    <TabPanel key="codes" header="Fund Codes">
      <FundCodesTab fund={fund} draft={draft} editing={editing && (creating || Boolean(fund.editable?.rows))} creating={creating} onChange={f.change} />
    </TabPanel>,
    fund.children.length > 0 && (
      <TabPanel key="children" header={`Children (${fund.children.length})`}>
        <ChildrenList fund={fund} onOpen={open} />
      </TabPanel>
    ),
    <TabPanel key="comments" header="Comments">
      <div className="fa-field-grid">
        {DELIVERY_COMMENT_FIELDS.map((x) => (
          <FieldRow key={x.key} field={x} details={fund} draft={draft} nrd={nrdList} editable={editing} onChange={f.change} />
        ))}
      </div>
    </TabPanel>,
    <TabPanel key="recipients" header="Recipients">
      {editing ? (
        <RecipientsEditor recipients={draft.recipients} nrd={nrdList} onChange={(r: Recipient[]) => f.change('recipients', r)} />
      ) : (
        <RecipientList recipients={draft.recipients} />
      )}
    </TabPanel>,
    !creating && config?.aggregation && (
      <TabPanel key="aggregation" header="Aggregation">
        <AggregationTab fund={fund} onOpen={open} reload={f.reload} />
      </TabPanel>
    ),
    !creating && fund.administrator && (
      <TabPanel key="mappings" header="Mappings">
        <MappingsTab fund={fund} reload={f.reload} />
      </TabPanel>
    ),
  ];

  return (
    <div className="fa-page fa-fd fa-aud">
      <header className="fa-fd-header">
        <div>
          <h2>{creating ? 'New fund request' : fund.name}</h2>
          <span className="fa-fd-status" data-testid="fund-status">
            {fund.statusLabel}
          </span>
          {!creating && fund.editable?.reason && (
            <span className="fa-empty-text"> - only comments and recipients can change because {fund.editable.reason}</span>
          )}
        </div>
        <FundToolbar
          fund={fund}
          creating={creating}
          editing={editing}
          dirty={f.dirty}
          saving={f.saving}
          dbPushEnabled={Boolean(config?.isDbPushEnabled)}
          onEdit={() => setEditing(true)}
          onSave={() => void save()}
          onDiscard={discard}
          onDownload={() => setDownloading(true)}
          onDelete={() => setDeleting(true)}
          onChanged={f.reload}
        />
      </header>
      <ValidationErrors errors={f.errors} onOpenFund={open} />
      <div className="fa-fd-body">
        <FundFormPanel
          fund={fund}
          draft={draft}
          editing={editing}
          creating={creating}
          nrd={nrdList}
          config={{ aggregation: config?.aggregation, investmentAnalyzerEnabled: config?.investmentAnalyzerEnabled }}
          onChange={f.change}
        />
        <div className="fa-fd-tabs">
          {!creating && <Button icon="pi pi-refresh" text rounded aria-label="Reload the fund" tooltip="Reload" className="fa-fd-reload" onClick={f.reload} />}
          {/* a new fund starts on its first tab; absent tabs are left out, not rendered as holes */}
          <TabView scrollable key={String(target)}>
            {panels.filter(Boolean)}
          </TabView>
        </div>
      </div>
      {!creating && <DownloadDialog fundIds={[fund.id]} visible={downloading} onHide={() => setDownloading(false)} onShowQueue={() => navigate('/export')} />}
      <ConfirmDialog
        visible={deleting}
        onHide={() => setDeleting(false)}
        header="Delete fund request"
        message={DELETE_QUESTION}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Delete"
        rejectLabel="Cancel"
        acceptClassName="p-button-danger"
        defaultFocus="reject"
        accept={() => void remove()}
      />
      <UnsavedChangesDialog
        visible={asking !== null}
        onKeep={() => setAsking(null)}
        onDiscard={() => {
          const then = asking;
          setAsking(null);
          f.discard();
          then?.();
        }}
      />
    </div>
  );
}

/** Not found, or the fund could not be loaded: the message and a way on. */
function Problem({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="fa-page fa-fd">
      <div className="fa-error-banner" role="alert">
        {message}
      </div>
      <div className="fa-fd-toolbar">
        {onRetry && <Button label="Try again" icon="pi pi-refresh" onClick={onRetry} />}
        <Button label="Back to the dashboard" text onClick={() => navigate('/')} />
      </div>
    </div>
  );
}

/** Recipients read-only. */
function RecipientList({ recipients }: { recipients: readonly Recipient[] }) {
  if (!recipients.length) return <p className="fa-empty-text">No recipients</p>;
  return (
    <table className="fa-fd-table" aria-label="Recipients">
      <thead>
        <tr>
          <th>Full name</th>
          <th>Email</th>
          <th>Role</th>
        </tr>
      </thead>
      <tbody>
        {recipients.map((r, i) => (
          <tr key={r.id ?? i}>
            <td>{r.full_name}</td>
            <td>{r.email}</td>
            <td>{r.role}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

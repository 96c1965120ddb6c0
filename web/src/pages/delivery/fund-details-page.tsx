/**
 * Fund details (`/fund/{id}` and `/fund/create`, delivery spec section 2 "Fund details"): the
 * fund's fields on the left (read-only until Edit; rows editable only while the server says so,
 * comments and recipients always), and the tabs Files, Processes, Logs, Errors, Trail, Fund
 * Codes, Children (n) when any, Comments, Recipients, Aggregation (when enabled) and Mappings
 * (when the fund has an administrator), with a reload control. Buttons: Edit / Save / Discard,
 * Rerun workpapers (open funds; with the Force run switch off, stages whose inputs did not change
 * are skipped), Download options, Delete (confirmed; back to /), More actions
 * (review all work papers; Db push when enabled). Leaving with unsaved changes asks first; a fund
 * found closed or deleted sends the user back to /.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { InputSwitch } from 'primereact/inputswitch';
import { Dropdown } from 'primereact/dropdown';
import { Menu } from 'primereact/menu';
import { TabPanel, TabView } from 'primereact/tabview';
import { useSnapshot } from 'valtio';
import type { Nrd, Recipient } from '../../api/auditor-types';
import { ApiError } from '../../api/errors';
import { reviewAllWorkPapers, triggerDbPush } from '../../api/fund-activity';
import { runFundAction } from '../../api/funds';
import { ensureAuditorStyles } from '../../components/auditor/auditor-styles';
import { usePageTitle } from '../../components/use-page-title';
import { auditorNrd, loadAuditorNrd, refOptions } from '../../state/auditor-nrd';
import { navigate, setLeaveGuard } from '../../state/navigation';
import { notify } from '../../state/notifications';
import { session } from '../../state/session';
import { DownloadDialog } from '../auditor/data-platform/download-dialog';
import { FieldRow } from '../auditor/fund-details/field-row';
import { canEdit, COMMENT_FIELDS, EXTERNAL_VALUATION_FIELDS, FUND_INFO_FIELDS, MATERIALITY_FIELDS, rowsEditable, RUN_PARAMETER_FIELDS, type FieldDef, type FormContext } from '../auditor/fund-details/fund-form';
import { RecipientsTab } from '../auditor/fund-details/recipients-tab';
import { ValidationErrors } from '../auditor/fund-details/validation-errors';
import { ErrorsTab } from './fund-details/errors-tab';
import { FilesTab } from './fund-details/files-tab';
import { LogsTab } from './fund-details/logs-tab';
import { NewFundForm } from './fund-details/new-fund-form';
import { ProcessesTab } from './fund-details/processes-tab';
import { AggregationTab, ChildrenTab, FundCodesTab, MappingsTab } from './fund-details/side-tabs';
import { TrailTab } from './fund-details/trail-tab';
import { useFundDetails } from './fund-details/use-fund-details';
import './delivery.css';

const GONE = ['Completed - Fund Closed', 'Deleted'];

export function FundDetailsPage({ id }: { id?: string }) {
  ensureAuditorStyles();
  const isNew = !id || id === 'create';
  const fundId = isNew ? null : Number(id);
  const { config, user } = useSnapshot(session);
  const { nrd } = useSnapshot(auditorNrd);
  const f = useFundDetails(fundId !== null && Number.isInteger(fundId) ? fundId : null);
  const { fund, draft } = f;
  const [editing, setEditing] = useState(isNew);
  const [asking, setAsking] = useState<null | (() => void)>(null);
  const [deleting, setDeleting] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [forceRun, setForceRun] = useState(true);
  const more = useRef<Menu>(null);
  usePageTitle(isNew ? 'New fund request' : fund ? `Fund details - ${fund.name}` : 'Fund details');

  useEffect(() => void loadAuditorNrd(), []);
  useEffect(() => setEditing(isNew), [id, isNew]);
  // a closed or deleted fund has nothing left to do here
  useEffect(() => {
    if (fund && GONE.includes(fund.status)) {
      notify({ severity: 'info', detail: `${fund.name} is ${fund.statusLabel}`, life: 4000 });
      navigate('/');
    }
  }, [fund]);
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

  if (isNew) {
    return (
      <div className="fa-page fa-fd fa-aud">
        <h2>New fund request</h2>
        <NewFundForm onCreated={(created) => { notify({ severity: 'success', detail: 'Fund request created', life: 5000 }); navigate(`/fund/${created.id}`, { replace: true }); }} onOpenFund={(other) => navigate(`/fund/${other}`)} onCancel={() => navigate('/')} />
      </div>
    );
  }
  if (f.loadError && !fund) {
    return (
      <div className="fa-page fa-fd">
        <div className="fa-error-banner" role="alert">{f.loadError}</div>
        <Button label="Back to the dashboard" text onClick={() => navigate('/')} />
      </div>
    );
  }
  if (!fund || !draft) return <p className="fa-page-loading" role="status">Loading fund details...</p>;

  const rows = rowsEditable(fund);
  const ctx: FormContext = { draft, config: { aggregation: config?.aggregation, investmentAnalyzerEnabled: config?.investmentAnalyzerEnabled } };
  const lock = fund.editable?.administratorLock ?? null;
  const section = (title: string, fields: readonly FieldDef[]) => (
    <section className="fa-fd-section" aria-label={title}>
      <h3>{title}</h3>
      <div className="fa-field-grid">
        {fields === FUND_INFO_FIELDS && (
          <AdministratorRow
            current={fund.administrator}
            value={(draft.administrator_code as string | null | undefined) ?? fund.administrator?.code ?? null}
            editable={editing && rows && !lock}
            lock={lock}
            nrd={nrd as Nrd | null}
            onChange={(code) => f.change('administrator_code', code)}
          />
        )}
        {fields.filter((x) => !x.show || x.show(ctx)).filter((x) => x.key !== 'alternative_codes' && x.key !== 'administrator').map((x) => (
          <FieldRow key={x.key} field={x} details={fund} draft={draft} nrd={nrd as Nrd | null} editable={editing && canEdit(x, rows)} onChange={f.change} />
        ))}
      </div>
    </section>
  );

  const save = async () => {
    if (await f.save()) {
      notify({ severity: 'success', detail: 'Fund request saved', life: 5000 });
      setEditing(false);
    }
  };
  const act = async (what: string, call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      notify({ severity: 'success', detail: done, life: 2400 });
    } catch (err) {
      notify({ severity: 'error', summary: `${what} failed`, detail: (err as ApiError).message });
    }
    f.reload();
  };
  const remove = async () => {
    setDeleting(false);
    try {
      await runFundAction('remove', [fund.id], user?.fullName ?? null);
      notify({ severity: 'success', detail: `${fund.name} deleted`, life: 2400 });
      navigate('/');
    } catch (err) {
      notify({ severity: 'error', summary: 'Delete failed', detail: (err as ApiError).message });
    }
  };
  const moreItems = [
    { label: 'Review all work papers', icon: 'pi pi-check-square', command: () => void act('Review all', () => reviewAllWorkPapers(fund.id), 'Work papers reviewed') },
    ...(config?.isDbPushEnabled ? [{ label: 'Db push', icon: 'pi pi-database', command: () => void act('Db push', () => triggerDbPush(fund.id), 'Fund data pushed') }] : []),
  ];
  const tabProps = { fund, reload: f.reload };

  return (
    <div className="fa-page fa-fd fa-aud">
      <header className="fa-fd-header">
        <div>
          <h2>{fund.name}</h2>
          <span className="fa-fd-status" data-testid="fund-status">{fund.statusLabel}</span>
          {fund.editable?.reason && <span className="fa-empty-text"> - only comments and recipients can change because {fund.editable.reason}</span>}
        </div>
        <div className="fa-fd-toolbar" role="toolbar" aria-label="Fund actions">
          {/* a stable wrapper: the tooltip of a disabled button next to it moves DOM nodes */}
          <span className="fa-fd-edit">
            {editing ? (
              <>
                <Button label="Save" icon="pi pi-check" disabled={!f.dirty} loading={f.saving} onClick={() => void save()} />
                <Button label="Discard" outlined onClick={() => { f.discard(); setEditing(false); }} />
              </>
            ) : (
              <Button label="Edit" icon="pi pi-pencil" onClick={() => setEditing(true)} />
            )}
          </span>
          <Button label="Rerun workpapers" icon="pi pi-replay" outlined disabled={fund.status !== 'Approved'} tooltip={fund.status !== 'Approved' ? 'Only open funds can be rerun' : undefined} tooltipOptions={{ showOnDisabled: true }} onClick={() => void act('Rerun', () => runFundAction('rerun', [fund.id], null, { forceRun }), 'Rerun queued')} />
          <span className="fa-fd-force">
            <InputSwitch inputId="fa-fd-force-run" checked={forceRun} onChange={(e) => setForceRun(Boolean(e.value))} />
            <label htmlFor="fa-fd-force-run">Force run</label>
          </span>
          <Button label="Download options" icon="pi pi-download" outlined onClick={() => setDownloading(true)} />
          <Button label="Delete" icon="pi pi-trash" severity="danger" outlined onClick={() => setDeleting(true)} />
          <Button label="More actions" icon="pi pi-ellipsis-v" text aria-haspopup="menu" onClick={(e) => more.current?.toggle(e)} />
          <Menu model={moreItems} popup ref={more} aria-label="More actions" />
        </div>
      </header>
      <ValidationErrors errors={f.errors} onOpenFund={open} />
      <div className="fa-fd-body">
        <aside className="fa-fd-form" aria-label="Fund form">
          {section('Fund info', FUND_INFO_FIELDS)}
          {section('Run parameters', RUN_PARAMETER_FIELDS)}
          {section('External valuations', EXTERNAL_VALUATION_FIELDS)}
          {section('Materialities', MATERIALITY_FIELDS)}
        </aside>
        <div className="fa-fd-tabs">
          <Button icon="pi pi-refresh" text rounded aria-label="Reload the fund" className="fa-fd-reload" onClick={f.reload} />
          <TabView scrollable>
            <TabPanel header="Files"><FilesTab {...tabProps} /></TabPanel>
            <TabPanel header="Processes"><ProcessesTab {...tabProps} /></TabPanel>
            <TabPanel header="Logs"><LogsTab {...tabProps} /></TabPanel>
            <TabPanel header="Errors"><ErrorsTab {...tabProps} /></TabPanel>
            <TabPanel header="Trail"><TrailTab {...tabProps} /></TabPanel>
            <TabPanel header="Fund Codes"><FundCodesTab fund={fund} draft={draft} editing={editing && rows} onChange={f.change} /></TabPanel>
            {fund.children.length > 0 && <TabPanel header={`Children (${fund.children.length})`}><ChildrenTab fund={fund} onOpen={open} /></TabPanel>}
            <TabPanel header="Comments">
              <div className="fa-field-grid">
                {COMMENT_FIELDS.map((x) => <FieldRow key={x.key} field={x} details={fund} draft={draft} nrd={nrd as Nrd | null} editable={editing} onChange={f.change} />)}
              </div>
            </TabPanel>
            <TabPanel header="Recipients">
              {editing ? <RecipientsTab recipients={draft.recipients} nrd={nrd as Nrd | null} onChange={(r: Recipient[]) => f.change('recipients', r)} /> : <RecipientList recipients={draft.recipients} />}
            </TabPanel>
            {config?.aggregation && <TabPanel header="Aggregation"><AggregationTab fund={fund} onOpen={open} reload={f.reload} /></TabPanel>}
            {fund.administrator && <TabPanel header="Mappings"><MappingsTab fund={fund} reload={f.reload} /></TabPanel>}
          </TabView>
        </div>
      </div>
      <DownloadDialog fundIds={[fund.id]} visible={downloading} onHide={() => setDownloading(false)} onShowQueue={() => navigate('/export')} />
      <ConfirmDialog visible={deleting} onHide={() => setDeleting(false)} header="Delete fund request" message={`Delete ${fund.name}? It moves to the Deleted filter and can be restored with Undo delete.`} icon="pi pi-exclamation-triangle" acceptLabel="Delete" rejectLabel="Cancel" acceptClassName="p-button-danger" accept={() => void remove()} />
      <ConfirmDialog
        visible={asking !== null}
        onHide={() => setAsking(null)}
        header="You have made changes"
        message="They will be lost if not saved"
        icon="pi pi-exclamation-triangle"
        acceptLabel="Discard changes"
        rejectLabel="Keep editing"
        accept={() => {
          const then = asking;
          setAsking(null);
          f.discard();
          then?.();
        }}
        reject={() => setAsking(null)}
      />
    </div>
  );
}

/** The administrator: a choice while the fund's rows are editable and nothing locks it; else its name and the lock reason. */
function AdministratorRow({ current, value, editable, lock, nrd, onChange }: {
  current: { code: string; name: string } | null; value: string | null; editable: boolean; lock: string | null; nrd: Nrd | null; onChange: (code: string | null) => void;
}) {
  return (
    <>
      <label htmlFor="fa-fd-administrator">Administrator (TPA)</label>
      {editable ? (
        <Dropdown inputId="fa-fd-administrator" value={value} options={refOptions(nrd?.administrators)} onChange={(e) => onChange((e.value as string | null) ?? null)} filter placeholder="Select" />
      ) : (
        <span data-field="administrator">
          {current?.name ?? '-'}
          {lock && <span className="fa-fd-lock" title="The administrator cannot be changed"> <i className="pi pi-lock" aria-hidden="true" /> {lock}</span>}
        </span>
      )}
    </>
  );
}

/** Recipients read-only. */
function RecipientList({ recipients }: { recipients: readonly Recipient[] }) {
  if (!recipients.length) return <p className="fa-empty-text">No recipients</p>;
  return (
    <table className="fa-fd-table" aria-label="Recipients">
      <thead><tr><th>Full name</th><th>Email</th><th>Role</th></tr></thead>
      <tbody>{recipients.map((r, i) => <tr key={r.id ?? i}><td>{r.full_name}</td><td>{r.email}</td><td>{r.role}</td></tr>)}</tbody>
    </table>
  );
}

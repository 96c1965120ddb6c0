/**
 * The Fund details modal (auditor spec 2.3): tabs Fund info, Run parameters, External valuations,
 * Materialities, Children (n) when any, Comments, Recipients. Rows are editable only when the fund
 * is Pending with nothing assigned; comments and recipients always. 'Save changes' shows only with
 * changes and no validation errors; saving runs `POST /fund/validate` then `POST /fund`. Closing
 * with unsaved changes asks first.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { TabPanel, TabView } from 'primereact/tabview';
import { useSnapshot } from 'valtio';
import { fetchFundDetails, saveFund, validateFund } from '../../../api/auditor';
import type { FundDetails, FundError, Nrd, Recipient } from '../../../api/auditor-types';
import { ApiError, DURATION } from '../../../api/errors';
import { UnsavedChangesDialog } from '../../../components/unsaved-changes-dialog';
import { auditorNrd, loadAuditorNrd } from '../../../state/auditor-nrd';
import { notify } from '../../../state/notifications';
import { session } from '../../../state/session';
import { ChildrenList } from '../../../components/fund-details/children-list';
import { FieldRow } from '../../../components/fund-details/field-row';
import { FilesSection } from './files-section';
import {
  canEdit,
  changedFields,
  emptiedRequired,
  COMMENT_FIELDS,
  draftOf,
  EXTERNAL_VALUATION_FIELDS,
  FUND_INFO_FIELDS,
  MATERIALITY_FIELDS,
  rowsEditable,
  RUN_PARAMETER_FIELDS,
  type Draft,
  type FieldDef,
  type FormContext,
} from '../../../components/fund-details/fund-form';
import { RecipientsTab } from './recipients-tab';
import { ValidationErrors } from '../../../components/fund-details/validation-errors';

/** Props of the modal. */
export interface FundDetailsModalProps {
  fundId: number;
  onClose: () => void;
  /** Called after a successful save (the listing reloads). */
  onSaved?: () => void;
  /** Opens another fund in the modal (children, 'Duplicate Fund' errors). */
  onOpenFund?: (id: number) => void;
}

function Fields({
  fields,
  details,
  draft,
  nrd,
  ctx,
  editable,
  onChange,
}: {
  fields: readonly FieldDef[];
  details: FundDetails;
  draft: Draft;
  nrd: Nrd | null;
  ctx: FormContext;
  editable: boolean;
  onChange: (k: string, v: unknown) => void;
}) {
  return (
    <div className="fa-field-grid">
      {fields
        .filter((f) => !f.show || f.show(ctx))
        .map((f) => (
          <FieldRow key={f.key} field={f} details={details} draft={draft} nrd={nrd} editable={canEdit(f, editable)} onChange={onChange} />
        ))}
    </div>
  );
}

/** Fund details in a modal dialog. */
export function FundDetailsModal({ fundId, onClose, onSaved, onOpenFund }: FundDetailsModalProps) {
  const { config } = useSnapshot(session);
  const { nrd } = useSnapshot(auditorNrd);
  const [details, setDetails] = useState<FundDetails | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  // why the details could not be loaded (true: no reason given)
  const [failed, setFailed] = useState<string | boolean>(false);
  const [errors, setErrors] = useState<FundError[]>([]);
  // the errors come from a failed save ('Action failed'), not from validation
  const [saveFailed, setSaveFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [asking, setAsking] = useState<null | { then: () => void }>(null);
  const [tab, setTab] = useState(0);

  useEffect(() => {
    let live = true;
    setDetails(null);
    setDraft(null);
    setErrors([]);
    setFailed(false);
    setTab(0);
    void loadAuditorNrd();
    fetchFundDetails(fundId)
      .then((d) => {
        if (!live) return;
        setDetails(d);
        setDraft(draftOf(d));
      })
      .catch((err: unknown) => live && setFailed(err instanceof ApiError && err.message ? err.message : true));
    return () => {
      live = false;
    };
  }, [fundId]);

  const changes = useMemo(() => (details && draft ? changedFields(details, draft) : {}), [details, draft]);
  const dirty = Object.keys(changes).length > 0;
  // a required field emptied is a validation error before any call (spec 2.3: no 'Save changes' then)
  const missing = useMemo(() => emptiedRequired(changes), [changes]);
  const shownErrors: readonly FundError[] = errors.length ? errors : missing;
  const editable = details ? rowsEditable(details) : false;
  const ctx: FormContext = {
    draft: draft ?? ({ alternative_codes: [], recipients: [] } as Draft),
    config: { aggregation: config?.aggregation, investmentAnalyzerEnabled: config?.investmentAnalyzerEnabled },
  };

  const onChange = (key: string, value: unknown) => {
    setErrors([]);
    setSaveFailed(false);
    setDraft((d) => {
      if (!d) return d;
      const next: Draft = { ...d, [key]: value };
      // rows that disappear take their values with them
      if (key === 'external_valuations' && value !== 'Y')
        for (const k of ['price_type_1', 'price_type_2', 'price_type_3', 'price_type_4', 'price_source_1', 'price_source_2', 'price_source_3']) next[k] = null;
      if (key === 'connected_audit' && value !== true) next.RTTPlus = next.RTTMinus = null;
      return next;
    });
  };
  const onRecipients = (recipients: Recipient[]) => onChange('recipients', recipients);

  /** Runs `then` at once, or after confirming that unsaved changes may be lost. */
  const guard = (then: () => void) => (dirty ? setAsking({ then }) : then());

  const save = async () => {
    if (!details || !dirty) return;
    setSaving(true);
    try {
      setSaveFailed(false);
      const found = await validateFund(details.id, changes);
      if (found.length) {
        setErrors(found);
        return;
      }
      const saved = await saveFund(details.id, changes);
      setDetails(saved);
      setDraft(draftOf(saved));
      setErrors([]);
      notify({ severity: 'success', detail: 'Fund request saved', life: DURATION.saveSuccess });
      onSaved?.();
    } catch (err) {
      // shown once, in the dialog where the user is ('Action failed' and up to 5 errors), never also as a notification
      const list: FundError[] = err instanceof ApiError && err.errors.length ? err.errors : [err instanceof Error ? err.message : 'An error occurred'];
      setErrors(list);
      setSaveFailed(true);
    } finally {
      setSaving(false);
    }
  };

  const openOther = (id: number) => guard(() => onOpenFund?.(id));
  const title = details ? `Fund details - ${details.name}` : 'Fund details';
  const footer = (
    <div className="fa-dialog-footer">
      {dirty && shownErrors.length === 0 && <Button label="Save changes" icon="pi pi-check" loading={saving} onClick={() => void save()} />}
      <Button label="Close" outlined onClick={() => guard(onClose)} />
    </div>
  );
  const n = nrd as Nrd | null;
  const childrenPanel =
    details && details.children.length > 0 ? (
      <TabPanel header={`Children (${details.children.length})`}>
        <ChildrenList fund={details} onOpen={openOther} />
      </TabPanel>
    ) : null;

  return (
    <>
      <Dialog header={title} visible onHide={() => guard(onClose)} footer={footer} style={{ width: 'min(1000px, 96vw)' }} className="fa-aud" modal maximizable>
        {failed && (
          <div className="fa-error-banner" role="alert">
            The fund details could not be loaded{typeof failed === 'string' ? `: ${failed}` : '.'}
          </div>
        )}
        {!failed && (!details || !draft) && (
          <p className="fa-muted" role="status">
            Loading fund details...
          </p>
        )}
        {details && draft && (
          <>
            {!editable && (
              <p className="fa-muted" style={{ marginTop: 0 }}>
                <i className="pi pi-lock" aria-hidden="true" /> Only comments and recipients can be changed
                {details.editable?.reason ? ` because ${details.editable.reason}` : ''}.
              </p>
            )}
            <ValidationErrors errors={shownErrors} onOpenFund={openOther} title={saveFailed && errors.length ? 'Action failed' : undefined} />
            <TabView activeIndex={tab} onTabChange={(e) => setTab(e.index)}>
              <TabPanel header="Fund info">
                <Fields fields={FUND_INFO_FIELDS} details={details} draft={draft} nrd={n} ctx={ctx} editable={editable} onChange={onChange} />
              </TabPanel>
              <TabPanel header="Run parameters">
                <Fields fields={RUN_PARAMETER_FIELDS} details={details} draft={draft} nrd={n} ctx={ctx} editable={editable} onChange={onChange} />
                <FilesSection
                  inputFiles={details.inputFiles}
                  standardizationFiles={details.standardizationFiles}
                  workPapers={details.workPapers}
                  qa={Boolean(config?.allowQAValidation)}
                  rerunCount={details.rerun_count}
                />
              </TabPanel>
              <TabPanel header="External valuations">
                <Fields fields={EXTERNAL_VALUATION_FIELDS} details={details} draft={draft} nrd={n} ctx={ctx} editable={editable} onChange={onChange} />
              </TabPanel>
              <TabPanel header="Materialities">
                <Fields fields={MATERIALITY_FIELDS} details={details} draft={draft} nrd={n} ctx={ctx} editable={editable} onChange={onChange} />
              </TabPanel>
              {childrenPanel}
              <TabPanel header="Comments">
                <Fields fields={COMMENT_FIELDS} details={details} draft={draft} nrd={n} ctx={ctx} editable={editable} onChange={onChange} />
              </TabPanel>
              <TabPanel header="Recipients">
                <RecipientsTab recipients={draft.recipients} nrd={n} onChange={onRecipients} />
              </TabPanel>
            </TabView>
          </>
        )}
      </Dialog>
      <UnsavedChangesDialog
        visible={asking !== null}
        onKeep={() => setAsking(null)}
        onDiscard={() => {
          const then = asking?.then;
          setAsking(null);
          then?.();
        }}
      />
    </>
  );
}

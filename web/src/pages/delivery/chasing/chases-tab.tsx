/**
 * The Chases tab of the delivery Fund details page (docs/chasing.md): every chase of the fund,
 * open ones first, each with its reason, state, message, evidence (missing types, figures, the
 * failing rows as CSV), recipients, the answer and its history; 'Return fund to TPA' (a reason is
 * required) and cancelling an open chase (after a confirmation). Which actions are enabled comes
 * from rules/chasing.ts.
 */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { Link } from 'wouter';
import { chaseActions, isOpenChase, returnToTpaAction, scheduleWords, displayDate, displayDateTime } from '../../../../../rules';
import { cancelChase, downloadEvidence, fetchSchedule, type ChaseSchedule, type ChaseView } from '../../../api/chasing';
import type { ApiError } from '../../../api/errors';
import { ChaseBody, ChaseRecipients, ChaseStateTag, ChaseTimeline, chaseTitle } from '../../../components/chasing/chase-parts';
import { notify } from '../../../state/notifications';
import { socketEvents } from '../../../state/socket';
import type { FundTabProps } from '../fund-details/tab-props';
import { ReturnDialog } from './return-dialog';
import { useFundChases } from './use-fund-chases';

export function ChasesTab({ fund }: FundTabProps) {
  const { chases, error, reload, openReturnOf } = useFundChases(fund.id);
  const [returning, setReturning] = useState(false);
  const [cancelling, setCancelling] = useState<ChaseView | null>(null);
  const [schedule, setSchedule] = useState<ChaseSchedule | null>(null);
  const admin = fund.administrator;

  useEffect(() => {
    if (admin?.id) fetchSchedule(admin.id).then(setSchedule, () => setSchedule(null));
  }, [admin?.id]);
  // a delivery or an answer moves chases: read them again when the fund's files change
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = socketEvents.on('file', (data) => {
      if ((data as { fundRequestId?: number } | null)?.fundRequestId !== fund.id) return;
      clearTimeout(timer);
      timer = setTimeout(reload, 500);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [fund.id, reload]);

  const fundReturn = returnToTpaAction({ fundStatus: fund.status, openReturnId: openReturnOf(null) });
  const cancel = async (c: ChaseView) => {
    setCancelling(null);
    try {
      await cancelChase(c.id);
      notify({ severity: 'success', detail: `Chase ${c.id} cancelled: no more reminders go out for it`, life: 3000 });
    } catch (err) {
      notify({ severity: 'error', summary: 'The chase could not be cancelled', detail: (err as ApiError).message });
    }
    reload();
  };

  const open = chases?.filter((c) => isOpenChase(c.state)).length ?? 0;
  return (
    <div className="fa-chases-tab" data-testid="fund-chases">
      <div className="fa-fd-toolbar">
        <span title={fundReturn.why ?? undefined}>
          <Button label={fundReturn.label} icon="pi pi-reply" size="small" outlined disabled={!fundReturn.enabled} onClick={() => setReturning(true)} />
        </span>
        {admin?.code && (
          <Link href={`/contacts?tpa=${encodeURIComponent(admin.code)}`} className="fa-linkbutton">
            Contacts of {admin.name ?? admin.code}
          </Link>
        )}
        <Button icon="pi pi-refresh" text rounded size="small" aria-label="Reload the chases" onClick={reload} />
      </div>
      {schedule && (
        <p className="fa-muted fa-chases-schedule">
          {schedule.enabled
            ? `Missing files are chased ${scheduleWords(schedule.offsets)} (${schedule.source === 'tpa' ? "the TPA's own schedule" : "the install's schedule"}).`
            : 'Chasing is switched off for this TPA.'}
          {fund.due_date ? ` Data due ${displayDate(String(fund.due_date))}.` : ' The fund request has no data due date: missing files are not chased.'}
        </p>
      )}
      {error && !chases ? (
        <div className="fa-error-banner" role="alert">
          {error} <Button label="Retry" text size="small" onClick={reload} />
        </div>
      ) : !chases ? (
        <p className="fa-empty-text" role="status">
          Loading...
        </p>
      ) : !chases.length ? (
        <p className="fa-empty-text">
          No chases. Fund Audit chases the TPA when input files are missing as the due date nears, when a delivery fails a check, and when a reviewer returns a
          file or the fund.
        </p>
      ) : (
        <>
          <p className="fa-muted">
            {open} open, {chases.length - open} closed
          </p>
          <ol className="fa-chase-list" aria-label="Chases">
            {chases.map((c) => (
              <ChaseItem key={c.id} chase={c} tpaCode={admin?.code ?? null} onCancel={() => setCancelling(c)} />
            ))}
          </ol>
        </>
      )}
      {returning && (
        <ReturnDialog
          target={{ fundId: fund.id, fundName: fund.name, file: null }}
          onHide={() => setReturning(false)}
          onReturned={(c) => {
            setReturning(false);
            notify({ severity: 'success', detail: `${fund.name} returned to the TPA (chase ${c.id}): it goes out with the next chase run`, life: 4000 });
            reload();
          }}
        />
      )}
      <ConfirmDialog
        visible={cancelling !== null}
        onHide={() => setCancelling(null)}
        header="Cancel chase"
        message={cancelling ? `Cancel chase ${cancelling.id} (${chaseTitle(cancelling)})? No more reminders go out for it.` : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel="Cancel chase"
        rejectLabel="Keep it"
        acceptClassName="p-button-danger"
        defaultFocus="reject"
        accept={() => cancelling && void cancel(cancelling)}
      />
    </div>
  );
}

function ChaseItem({ chase: c, tpaCode, onCancel }: { chase: ChaseView; tpaCode: string | null; onCancel: () => void }) {
  const can = chaseActions(c);
  return (
    <li className="fa-chase" data-open={isOpenChase(c.state)} data-state={c.state} data-chase={c.id} aria-label={`Chase ${c.id}: ${chaseTitle(c)}`}>
      <div className="fa-chase-head">
        <h3>{chaseTitle(c)}</h3>
        <ChaseStateTag state={c.state} />
        <div className="fa-chase-actions">
          {can.evidence && <Button label="Failing rows (CSV)" icon="pi pi-download" size="small" text onClick={() => void downloadEvidence(c.id)} />}
          {can.cancel && <Button label="Cancel chase" icon="pi pi-times" size="small" text severity="danger" onClick={onCancel} />}
        </div>
      </div>
      <p className="fa-chase-meta">
        Chase {c.id} · opened {displayDateTime(c.createdAt)} · {c.remindersSent} mail{c.remindersSent === 1 ? '' : 's'} sent
        {c.lastSentAt ? `, last ${displayDateTime(c.lastSentAt)}` : ''}
        {c.nextReminderOn && isOpenChase(c.state) ? ` · next mail due ${displayDate(c.nextReminderOn)}` : ''}
        {c.closedAt ? ` · closed ${displayDateTime(c.closedAt)}` : ''}
      </p>
      <ChaseBody chase={c} />
      <div className="fa-chase-section-title">Recipients</div>
      <ChaseRecipients
        chase={c}
        empty={
          isOpenChase(c.state) ? (
            <>
              Recipients are taken at the next chase run from the TPA&apos;s and the client&apos;s contacts and the fund&apos;s TPA and client recipients.{' '}
              {tpaCode && <Link href={`/contacts?tpa=${encodeURIComponent(tpaCode)}`}>Manage the TPA&apos;s contacts</Link>}
            </>
          ) : (
            'None'
          )
        }
      />
      <details className="fa-chase-history">
        <summary>History ({c.events.length})</summary>
        <ChaseTimeline chase={c} />
      </details>
    </li>
  );
}

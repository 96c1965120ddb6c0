/**
 * Open chases (/chases, and /chases?fund=<id> from a chase mail; docs/chasing.md "Answering"): the
 * chases addressed to the signed-in Client or TPA user (their address is a contact of the fund's TPA
 * or client, or a chased recipient of the fund). Each shows the fund, what is missing or what failed
 * with its figures (expected, delivered, difference), the failing rows as CSV, and an upload of the
 * missing or corrected file against it; the answer then shows on the chase (answered, then resolved
 * once the new delivery passes its checks: the page reads the chases again while one is answered).
 * Chases closed in the last 30 days stay listed below the open ones.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Link, useSearch } from 'wouter';
import { chaseActions, isOpenChase, displayDate, displayDateTime } from '../../../../rules';
import { answerChase, downloadEvidence, fetchMyChases, type ChaseView } from '../../api/chasing';
import { errorText, type ApiError } from '../../api/errors';
import { ChaseBody, ChaseStateTag, ChaseTimeline, chaseTitle } from '../../components/chasing/chase-parts';
import { UploadZone } from '../../components/files/upload-zone';
import { usePageTitle } from '../../components/use-page-title';
import { notify } from '../../state/notifications';

/** How often the page reads the chases again while an answer goes through the pipeline (ms). */
const ANSWER_POLL_MS = 4000;

export function MyChasesPage() {
  const search = useSearch();
  const fundParam = new URLSearchParams(search).get('fund');
  const fundId = fundParam && /^\d+$/.test(fundParam) ? Number(fundParam) : undefined;
  const [chases, setChases] = useState<ChaseView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const focusName = fundId ? chases?.find((c) => c.fundRequestId === fundId)?.fundName : undefined;
  usePageTitle(focusName ? `Open chases - ${focusName}` : 'Open chases');

  const load = useCallback(() => {
    fetchMyChases(fundId).then(
      (c) => (setChases(c), setError(null)),
      (err: ApiError) => setError(err.message),
    );
  }, [fundId]);
  useEffect(() => {
    setChases(null);
    load();
  }, [load]);
  // an answer goes through the pipeline: read again until it is resolved (or sent back)
  const waiting = chases?.some((c) => c.state === 'answered') ?? false;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(load, ANSWER_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, load]);

  const answered = (c: ChaseView) => setChases((list) => list?.map((x) => (x.id === c.id ? c : x)) ?? null);
  const open = chases?.filter((c) => isOpenChase(c.state)) ?? [];
  const closed = chases?.filter((c) => !isOpenChase(c.state)) ?? [];

  return (
    <section className="fa-page fa-my-chases" aria-labelledby="fa-my-chases-title">
      <h1 id="fa-my-chases-title">Open chases</h1>
      <p className="fa-my-chases-intro">
        Fund Audit asks you for these files. Upload the missing or corrected file against its chase: it goes through the same checks as any delivery, and the
        chase closes by itself once they pass.
      </p>
      {fundId && (
        <div className="fa-my-chases-focus">
          <h2>{focusName ? `Chases of ${focusName}` : `Chases of fund request ${fundId}`}</h2>
          <Link href="/chases">Show all my chases</Link>
        </div>
      )}
      {error && !chases ? (
        <div className="fa-error-banner" role="alert">
          {error} <Button label="Try again" text size="small" onClick={load} />
        </div>
      ) : !chases ? (
        <p className="fa-empty-text" role="status">
          Loading...
        </p>
      ) : (
        <>
          {!open.length && (
            <div className="fa-my-chases-empty" data-testid="no-open-chases">
              <i className="pi pi-check-circle" aria-hidden="true" />
              <p>
                <strong>Nothing is open{fundId ? ' for this fund request' : ''}.</strong>{' '}
                {fundId
                  ? 'Its chases are answered and closed, or the link is for a fund request whose chases are not addressed to you.'
                  : 'When Fund Audit needs a file from you, the chase shows here and in your mail.'}
              </p>
            </div>
          )}
          {!!open.length && (
            <ol className="fa-chase-list" aria-label="Open chases">
              {open.map((c) => (
                <MyChase key={c.id} chase={c} onAnswered={answered} />
              ))}
            </ol>
          )}
          {!!closed.length && (
            <section className="fa-my-chases-closed" aria-labelledby="fa-my-chases-closed">
              <h2 id="fa-my-chases-closed">Closed in the last 30 days</h2>
              <ol className="fa-chase-list" aria-label="Closed chases">
                {closed.map((c) => (
                  <MyChase key={c.id} chase={c} onAnswered={answered} />
                ))}
              </ol>
            </section>
          )}
        </>
      )}
    </section>
  );
}

function MyChase({ chase: c, onAnswered }: { chase: ChaseView; onAnswered: (c: ChaseView) => void }) {
  const can = chaseActions(c);
  const [answering, setAnswering] = useState(false);
  const uploadBox = useRef<HTMLDivElement>(null);
  // the opened upload takes the focus on its Choose button
  useEffect(() => {
    if (answering) uploadBox.current?.querySelector<HTMLElement>('.p-fileupload-choose')?.focus();
  }, [answering]);
  const upload = async (files: File[]): Promise<boolean> => {
    const file = files[0];
    if (!file) return false;
    try {
      const { chase } = await answerChase(c.id, file);
      notify({ severity: 'success', detail: `${file.name} uploaded: it goes through the checks now`, life: 4000 });
      setAnswering(false);
      onAnswered(chase);
      return true;
    } catch (err) {
      const e = err as ApiError;
      notify({ severity: 'error', summary: `${file.name} could not be uploaded`, detail: e.errors.map(errorText).join('; ') || e.message });
      return false;
    }
  };
  const fund = `${c.fundName}${c.fundCode ? ` (${c.fundCode})` : ''}`;
  return (
    <li className="fa-chase fa-my-chase" data-open={isOpenChase(c.state)} data-state={c.state} data-chase={c.id} aria-label={`${c.fundName}: ${chaseTitle(c)}`}>
      <div className="fa-chase-head">
        <h3>{chaseTitle(c)}</h3>
        <ChaseStateTag state={c.state} />
        <div className="fa-chase-actions">
          {can.evidence && (
            <Button label="Download failing rows (CSV)" icon="pi pi-download" size="small" outlined onClick={() => void downloadEvidence(c.id)} />
          )}
          {can.answer && !answering && (
            <Button
              label={c.state === 'answered' ? 'Upload another file' : 'Upload the file'}
              icon="pi pi-upload"
              size="small"
              onClick={() => setAnswering(true)}
            />
          )}
        </div>
      </div>
      <p className="fa-chase-meta">
        <strong className="fa-my-chase-fund">{fund}</strong>
        {[c.client && `Client ${c.client}`, c.administrator && `TPA ${c.administrator}`, c.dueDate && `data due ${displayDate(c.dueDate)}`]
          .filter(Boolean)
          .map((x) => ` · ${x}`)
          .join('')}
        {` · asked ${displayDate(c.createdAt)}`}
        {c.closedAt ? ` · closed ${displayDateTime(c.closedAt)}` : ''}
      </p>
      <ChaseBody chase={c} />
      {can.answer && answering && (
        <div className="fa-my-chase-upload" ref={uploadBox}>
          <div className="fa-my-chase-upload-head">
            <h4>{c.state === 'answered' ? 'Upload another file' : 'Upload the missing or corrected file'}</h4>
            <Button label="Close" text size="small" onClick={() => setAnswering(false)} />
          </div>
          <UploadZone
            label={`Answer to chase ${c.id}`}
            onUpload={upload}
            multiple={false}
            chooseLabel="Choose a file"
            hint="One file: it is imported for this fund request and runs through the checks."
          />
        </div>
      )}
      <details className="fa-chase-history">
        <summary>History ({c.events.length})</summary>
        <ChaseTimeline chase={c} />
      </details>
    </li>
  );
}

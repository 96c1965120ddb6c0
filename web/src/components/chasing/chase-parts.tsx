/**
 * The parts of a chase both the delivery team's Chases tab and a chased user's Open chases page
 * show: its state tag, the evidence (missing input types, the returned file, the check's figures
 * expected / delivered / difference in fund currency and its first failing rows), its recipients,
 * the answer (who uploaded what, when) and its timeline. Labels come from rules/chasing.ts.
 */
import type { ReactNode } from 'react';
import {
  CHASE_REASON_LABELS,
  CHASE_STATE_LABELS,
  CHASE_STATE_TONES,
  CONTACT_ROLE_LABELS,
  contactLabel,
  inputTypeWords,
  type ChaseReason,
  type ChaseState,
  displayDateTime,
} from '../../../../rules';
import type { ChaseEvent, ChaseView } from '../../api/chasing';

/** An amount in fund currency with two decimals ('-' for none). */
export function money(n: number | null | undefined, currency?: string | null): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  return `${n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ''}`;
}

/** The chase's state as a coloured tag. */
export function ChaseStateTag({ state }: { state: ChaseState }) {
  return (
    <span className={`fa-chase-state fa-tone-${CHASE_STATE_TONES[state]}`} data-state={state}>
      {CHASE_STATE_LABELS[state] ?? state}
    </span>
  );
}

/** 'Files missing', 'Failed check: Trial balance out of balance', 'Returned to TPA'. */
export function chaseTitle(c: Pick<ChaseView, 'reason' | 'evidence'>): string {
  const label = CHASE_REASON_LABELS[c.reason as ChaseReason] ?? c.reason;
  return c.reason === 'failed_check' && c.evidence.checkLabel ? `${label}: ${c.evidence.checkLabel}` : label;
}

/** What the chase is about: missing types, the returned file, the figures and the first failing rows. */
export function ChaseEvidence({ chase }: { chase: ChaseView }) {
  const e = chase.evidence;
  return (
    <div className="fa-chase-evidence">
      {!!e.missingTypes?.length && (
        <p>
          <span className="fa-chase-label">Missing</span> {e.missingTypes.map(inputTypeWords).join(', ')}
        </p>
      )}
      {e.fileName && (
        <p>
          <span className="fa-chase-label">File</span> {e.fileName}
          {e.fileType ? ` (${inputTypeWords(e.fileType)})` : ''}
        </p>
      )}
      {!!e.figures?.length && (
        <table className="fa-chase-table fa-chase-figures" aria-label={`Figures of chase ${chase.id}`}>
          <thead>
            <tr>
              <th>Check</th>
              <th className="fa-num">Expected</th>
              <th className="fa-num">Delivered</th>
              <th className="fa-num">Difference</th>
            </tr>
          </thead>
          <tbody>
            {e.figures.map((f, i) => (
              <tr key={i}>
                <td>{f.label}</td>
                <td className="fa-num">{money(f.expected, f.currency)}</td>
                <td className="fa-num">{money(f.delivered, f.currency)}</td>
                <td className="fa-num fa-chase-diff">{money(f.difference, f.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!!e.items?.length && (
        <details className="fa-chase-items">
          <summary>
            Failing rows: {e.rowCount ?? e.items.length}
            {e.rowCount && e.rowCount > e.items.length ? ` (the first ${e.items.length} shown; all are in the CSV)` : ''}
          </summary>
          <ul>
            {e.items.map((it, i) => (
              <li key={i}>
                <strong>{it.name}</strong> {it.message}
                {it.file ? (
                  <span className="fa-muted">
                    {' '}
                    ({it.file}
                    {it.line ? `, line ${it.line}` : ''})
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * What a chase asks and what came of it: the reason of a returned file (or the chaser's message),
 * the failing rows behind a failed check, and the latest answer. Shared by the delivery Chases
 * tab and the Client's Open chases page.
 */
export function ChaseBody({ chase: c }: { chase: ChaseView }) {
  return (
    <>
      {c.reason === 'returned' ? (
        <p className="fa-chase-message">
          <span className="fa-chase-label">Reason</span>
          {c.message}
        </p>
      ) : c.reason !== 'missing_files' && c.message ? (
        <p className="fa-chase-message">{c.message}</p>
      ) : null}
      <ChaseEvidence chase={c} />
      <ChaseAnswer chase={c} />
    </>
  );
}

/** Who the chase goes to (as resolved at its last run): name or address, role, where they came from. */
export function ChaseRecipients({ chase, empty }: { chase: ChaseView; empty: ReactNode }) {
  if (!chase.recipients.length) return <p className="fa-empty-text fa-chase-norecipients">{empty}</p>;
  return (
    <ul className="fa-chase-recipients" aria-label={`Recipients of chase ${chase.id}`}>
      {chase.recipients.map((r) => (
        <li key={r.email}>
          <span>{contactLabel(r)}</span>
          {r.name.trim() && <span className="fa-muted"> {r.email}</span>}
          <span className="fa-chase-role">{CONTACT_ROLE_LABELS[r.role] ?? r.role}</span>
        </li>
      ))}
    </ul>
  );
}

/** The latest answer of a chase (an 'answered' event), or null. */
export function latestAnswer(chase: ChaseView): ChaseEvent | null {
  return chase.events.find((e) => e.state === 'answered') ?? null;
}

/** 'holdings.csv uploaded by ops@tpa.com on 07/12/2026 10:21:03', and what became of it. */
export function ChaseAnswer({ chase }: { chase: ChaseView }) {
  const answer = latestAnswer(chase);
  if (!answer) return null;
  const outcome =
    chase.state === 'answered'
      ? 'The file is going through the checks; the chase closes by itself when they pass.'
      : chase.state === 'resolved'
        ? 'Resolved: the new delivery fixed it.'
        : chase.state === 'cancelled'
          ? 'The chase was cancelled.'
          : 'The answer did not fix it yet: see what is still needed above.';
  return (
    <div className="fa-chase-answer" role="status" data-testid={`chase-answer-${chase.id}`}>
      <i className="pi pi-reply" aria-hidden="true" />
      <div>
        <div>
          <strong>Answered:</strong> {answer.note} by {answer.actor} on {displayDateTime(answer.at)}
        </div>
        <div className="fa-muted">{outcome}</div>
      </div>
    </div>
  );
}

/** Every state change, newest first. */
export function ChaseTimeline({ chase }: { chase: ChaseView }) {
  return (
    <ol className="fa-chase-timeline" aria-label={`History of chase ${chase.id}`}>
      {chase.events.map((e, i) => (
        <li key={i}>
          <time dateTime={e.at}>{displayDateTime(e.at)}</time>
          <ChaseStateTag state={e.state} />
          <span>{e.note}</span>
          <span className="fa-muted">{e.actor}</span>
        </li>
      ))}
    </ol>
  );
}

/**
 * Demo side widget (config.demo): steps 1 Demo fund request, 2 Demo input files, 3 Reset demo
 * data. Shown only to roles that may run the demo (a Client would be refused its calls); steps 1
 * and 3 ask first, naming what they remove and what stays.
 */
import { useEffect, useRef } from 'react';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useSnapshot } from 'valtio';
import { roleMayUse } from '../../../rules/access';
import { answerDemoQuestion, demo, loadDemoState, runDemoStep, type DemoStepNumber } from '../state/demo';
import { session } from '../state/session';

const STEPS: Array<{ n: DemoStepNumber; label: string }> = [
  { n: 1, label: 'Demo fund request' },
  { n: 2, label: 'Demo input files' },
  { n: 3, label: 'Reset demo data' },
];

/** Whether the session shows the demo widget: demo mode on and a role that may make the demo calls. */
export function showsDemoWidget(config: { demo?: boolean } | null | undefined, role: string | null | undefined): boolean {
  return Boolean(config?.demo) && roleMayUse('shared', role);
}

export function DemoWidget() {
  const { config, user } = useSnapshot(session);
  const { step, loading, startedBy, question } = useSnapshot(demo);
  const shown = showsDemoWidget(config, user?.role);
  // the question answered stays in the dialog while it closes (its fade-out), not an empty box
  const asked = useRef(question);
  if (question) asked.current = question;
  const q = asked.current;
  useEffect(() => {
    if (shown) void loadDemoState();
  }, [shown]);
  if (!shown) return null;
  const who = startedBy ? ` (started by ${startedBy.email} on ${new Date(startedBy.start_date).toLocaleString('en-GB')})` : user ? ` (${user.email})` : '';
  return (
    <aside className="fa-demo" aria-label="Live demo" title={`Live demo in progress${who}`}>
      <div className="fa-demo-title">Live demo</div>
      <ol>
        {STEPS.map((s) => (
          <li key={s.n}>
            <button
              type="button"
              className={`fa-demo-step${step === s.n ? ' fa-current' : ''}`}
              aria-current={step === s.n ? 'step' : undefined}
              disabled={loading}
              onClick={() => void runDemoStep(s.n)}
            >
              <span className="fa-demo-number">{s.n}</span>
              <span>{s.label}</span>
            </button>
          </li>
        ))}
      </ol>
      <ConfirmDialog
        visible={question !== null}
        onHide={() => void answerDemoQuestion(false)}
        header={q?.header}
        message={
          <div className="fa-demo-question" data-testid="demo-question">
            {q?.lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        }
        icon="pi pi-exclamation-triangle"
        acceptLabel={q?.accept}
        rejectLabel="Cancel"
        defaultFocus="reject"
        accept={() => void answerDemoQuestion(true)}
        reject={() => void answerDemoQuestion(false)}
        style={{ width: 'min(560px, 95vw)' }}
      />
    </aside>
  );
}

/** Demo side widget (config.demo): steps 1 Demo fund request, 2 Demo input files, 3 Reset demo data. */
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { demo, loadDemoState, runDemoStep, type DemoStepNumber } from '../state/demo';
import { session } from '../state/session';

const STEPS: Array<{ n: DemoStepNumber; label: string }> = [
  { n: 1, label: 'Demo fund request' },
  { n: 2, label: 'Demo input files' },
  { n: 3, label: 'Reset demo data' },
];

export function DemoWidget() {
  const { config, user } = useSnapshot(session);
  const { step, loading, startedBy } = useSnapshot(demo);
  useEffect(() => {
    if (config?.demo) void loadDemoState();
  }, [config?.demo]);
  if (!config?.demo) return null;
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
    </aside>
  );
}

/** Demo widget state (spec: step, loading) and its three actions. */
import { proxy } from 'valtio';
import { demoCalls, type DemoState } from '../api/endpoints';

export type DemoStepNumber = 1 | 2 | 3;

export const demo = proxy<{ step: DemoStepNumber; loading: boolean; startedBy: { email: string; start_date: string } | null }>({
  step: 1,
  loading: false,
  startedBy: null,
});

/** Takes the step and who started the demo from the server's answer. */
function apply(state: DemoState | null | undefined): void {
  if (!state || typeof state.step !== 'number') return;
  demo.step = (state.step >= 1 && state.step <= 3 ? state.step : 1) as DemoStepNumber;
  demo.startedBy = state.fundRequestDemo?.[0] ?? null;
}

/** Loads the demo state every user shares (who started it, which step is next). */
export async function loadDemoState(): Promise<void> {
  try {
    apply(await demoCalls.state());
  } catch {
    // no demo state: the widget starts at step 1
  }
}

/** Step after a successful action: fund request -> 2, input files -> 3, reset -> 1. */
export function nextDemoStep(done: DemoStepNumber): DemoStepNumber {
  return done === 1 ? 2 : done === 2 ? 3 : 1;
}

const calls: Record<DemoStepNumber, () => Promise<DemoState>> = {
  1: demoCalls.fundRequest,
  2: demoCalls.files,
  3: demoCalls.reset,
};

/** Runs a demo step; failures are shown by the API client's default error handling. */
export async function runDemoStep(step: DemoStepNumber): Promise<void> {
  if (demo.loading) return;
  demo.loading = true;
  try {
    const state = await calls[step]();
    demo.step = nextDemoStep(step);
    apply(state);
  } catch {
    // already notified
  } finally {
    demo.loading = false;
  }
}

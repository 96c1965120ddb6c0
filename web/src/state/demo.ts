/** Demo widget state (spec: step, loading) and its three actions. */
import { proxy } from 'valtio';
import { demoCalls } from '../api/endpoints';

export type DemoStepNumber = 1 | 2 | 3;

export const demo = proxy<{ step: DemoStepNumber; loading: boolean }>({ step: 1, loading: false });

/** Step after a successful action: fund request -> 2, input files -> 3, reset -> 1. */
export function nextDemoStep(done: DemoStepNumber): DemoStepNumber {
  return done === 1 ? 2 : done === 2 ? 3 : 1;
}

const calls: Record<DemoStepNumber, () => Promise<unknown>> = {
  1: demoCalls.fundRequest,
  2: demoCalls.files,
  3: demoCalls.reset,
};

/** Runs a demo step; failures are shown by the API client's default error handling. */
export async function runDemoStep(step: DemoStepNumber): Promise<void> {
  if (demo.loading) return;
  demo.loading = true;
  try {
    await calls[step]();
    demo.step = nextDemoStep(step);
  } catch {
    // already notified
  } finally {
    demo.loading = false;
  }
}

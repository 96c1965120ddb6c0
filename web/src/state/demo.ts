/**
 * Demo widget state (spec: step, loading) and its three actions. Steps 1 and 3 remove what is left
 * of the demo: before they run, the widget asks, naming what will go and what stays (the server's
 * `cleanup`); after, a notice says what was removed (its `removed`).
 */
import { proxy } from 'valtio';
import { demoConfirmation, demoNeedsConfirmation, demoOutcome, type DemoRemovingStep } from '../../../rules/demo';
import { demoCalls, type DemoState } from '../api/endpoints';
import { notifySuccess } from './notifications';

export type DemoStepNumber = 1 | 2 | 3;

/** A question waiting for the user's answer before a removing step runs. */
export interface DemoQuestion {
  step: DemoRemovingStep;
  header: string;
  lines: string[];
  accept: string;
}

export const demo = proxy<{
  step: DemoStepNumber;
  loading: boolean;
  startedBy: { email: string; start_date: string } | null;
  question: DemoQuestion | null;
}>({
  step: 1,
  loading: false,
  startedBy: null,
  question: null,
});

/** How long the notice of what a step removed stays (it may name several requests and files). */
const OUTCOME_LIFE_MS = 10_000;

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

async function run(step: DemoStepNumber): Promise<void> {
  demo.loading = true;
  try {
    const state = await calls[step]();
    demo.step = nextDemoStep(step);
    apply(state);
    if (step !== 2 && state.removed) notifySuccess(demoOutcome(step, state.removed), OUTCOME_LIFE_MS);
  } catch {
    // already notified
  } finally {
    demo.loading = false;
  }
}

/**
 * Runs a demo step. Steps 1 and 3 first read what they would remove now; when they remove (or
 * leave) anything of the demo, they wait for `answerDemoQuestion`. Failures are shown by the API
 * client's default error handling.
 */
export async function runDemoStep(step: DemoStepNumber): Promise<void> {
  if (demo.loading || demo.question) return;
  if (step === 2) return run(step);
  demo.loading = true;
  let state: DemoState;
  try {
    state = await demoCalls.state({ notify: true });
    apply(state);
  } catch {
    demo.loading = false;
    return;
  }
  demo.loading = false;
  if (!demoNeedsConfirmation(state.cleanup)) return run(step);
  demo.question = { step, ...demoConfirmation(step, state.cleanup) };
}

/** The user's answer to the question: run the step, or leave everything as it is. */
export async function answerDemoQuestion(proceed: boolean): Promise<void> {
  const q = demo.question;
  demo.question = null;
  if (proceed && q) await run(q.step);
}

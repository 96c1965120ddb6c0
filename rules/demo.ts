/**
 * Texts of demo mode's removals (auditor spec 2.2 "Demo side widget": 1 Demo fund request,
 * 3 Reset demo data): the confirmation naming what will go and what stays, and the notice saying
 * what went. The server decides what is the demo's (server/services/demo/cleanup.ts); these
 * sentences only describe its answer.
 */

/** A fund request as the demo calls name it. */
export interface DemoFundText {
  id: number;
  name: string;
  fund_code: string | null;
}

/** What the demo removes or removed (the `cleanup` / `removed` of the demo calls' answers). */
export interface DemoCleanupText {
  fundRequests: DemoFundText[];
  importFiles: string[];
  kept: Array<DemoFundText & { reason: string }>;
  otherFundRequests: number;
}

/** The two demo steps that remove: 1 (before creating the demo fund request) and 3 (reset). */
export type DemoRemovingStep = 1 | 3;

const fundText = (f: DemoFundText) => `${f.name} (${f.fund_code ?? 'no fund code'}, id ${f.id})`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** 'the demo fund request X (code, id n) and its 3 input files (a, b and c)', or '' when nothing goes. */
function whatGoes(c: DemoCleanupText): string {
  const parts: string[] = [];
  if (c.fundRequests.length) parts.push(`the demo's ${c.fundRequests.length === 1 ? 'fund request' : 'fund requests'} ${listOf(c.fundRequests.map(fundText))}`);
  if (c.importFiles.length) parts.push(`${plural(c.importFiles.length, 'demo input file')} (${listOf(c.importFiles)})`);
  return parts.join(' and ');
}

/** The sentences on what stays: the demo's requests kept and why, and the users' requests of the demo TPA. */
function whatStays(c: DemoCleanupText): string[] {
  const lines = c.kept.map((k) => `${fundText(k)} stays: ${k.reason}.`);
  if (c.otherFundRequests)
    lines.push(
      `${c.otherFundRequests === 1 ? 'The 1 other fund request' : `The ${c.otherFundRequests} other fund requests`} of the demo TPA ${c.otherFundRequests === 1 ? 'is' : 'are'} not the demo's and ${c.otherFundRequests === 1 ? 'stays' : 'stay'}.`,
    );
  return lines;
}

/** Whether a step must ask before it runs: it removes something, or the user should know what it leaves. */
export function demoNeedsConfirmation(c: DemoCleanupText): boolean {
  return c.fundRequests.length > 0 || c.importFiles.length > 0 || c.kept.length > 0;
}

/** The confirmation's title and lines for a removing step. */
export function demoConfirmation(step: DemoRemovingStep, c: DemoCleanupText): { header: string; lines: string[]; accept: string } {
  const goes = whatGoes(c);
  const first =
    step === 1
      ? goes
        ? `This removes ${goes}, left from an earlier demo, then creates the demo fund request again.`
        : 'Nothing of an earlier demo is left to remove; this creates the demo fund request.'
      : goes
        ? `This permanently removes ${goes}.`
        : 'Nothing of the demo is left to remove.';
  return {
    header: step === 1 ? 'Create the demo fund request?' : 'Reset demo data?',
    lines: [first, ...whatStays(c)],
    accept: step === 1 ? (goes ? 'Remove and create' : 'Create') : 'Remove demo data',
  };
}

/** The notice after a removing step: what was removed and what stayed. */
export function demoOutcome(step: DemoRemovingStep, removed: DemoCleanupText): string {
  const goes = whatGoes(removed);
  const head =
    step === 1
      ? goes
        ? `Demo fund request created; removed ${goes}.`
        : 'Demo fund request created; nothing was removed.'
      : goes
        ? `Demo data reset: removed ${goes}.`
        : 'Demo data reset: nothing was removed.';
  return [head, ...whatStays(removed)].join(' ');
}

/**
 * Reports of a run's results for people and CI: JUnit XML (one `<testsuite>` per administrator,
 * one `<testcase>` per case, a `<failure>` holding the readable differences of the failed steps)
 * and a plain-text report; plus the one-line summary of a case used in tables.
 */
import type { CaseResult, RunResults } from './plan.js';

/** Escapes text for XML attributes and content, dropping characters XML 1.0 does not allow. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The first failed step of a case as one line ('' when it passed). */
export function caseProblem(t: CaseResult): string {
  const s = t.steps.find((x) => !x.success);
  return s ? `${s.stepId}: ${s.error?.message ?? 'failed'}` : '';
}

/** Every failed step of a case with its full difference. */
export function caseFailureText(t: CaseResult): string {
  return t.steps
    .filter((s) => !s.success)
    .map((s) => {
      const message = s.error?.message ?? 'failed';
      const rest = (s.error?.traceback ?? '').startsWith(message)
        ? (s.error?.traceback ?? '').slice(message.length).replace(/^\n+/, '')
        : (s.error?.traceback ?? '');
      const tb = rest
        ? `\n${rest
            .split('\n')
            .map((l) => (l ? `    ${l}` : ''))
            .join('\n')}`
        : '';
      return `[${s.stepId}] ${message}${tb}`;
    })
    .join('\n\n');
}

const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/** JUnit XML of a run. */
export function junitXml(results: RunResults, name = 'fund-audit test run'): string {
  const all = Object.values(results.reports).flatMap((r) => r.tests);
  const failures = all.filter((t) => !t.success).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(name)}" tests="${all.length}" failures="${failures}" errors="0" time="${seconds(results.stats.totalTime)}">`,
  ];
  for (const [code, report] of Object.entries(results.reports)) {
    const time = report.tests.reduce((n, t) => n + t.time, 0);
    const failed = report.tests.filter((t) => !t.success).length;
    out.push(
      `  <testsuite name="${xmlEscape(code)}" tests="${report.tests.length}" failures="${failed}" errors="0" skipped="0" time="${seconds(time)}" timestamp="${xmlEscape(results.stats.startedAt)}">`,
    );
    for (const t of report.tests) {
      out.push(`    <testcase classname="${xmlEscape(code)}" name="${xmlEscape(`${t.id}: ${t.title}`)}" time="${seconds(t.time)}">`);
      if (!t.success) out.push(`      <failure message="${xmlEscape(caseProblem(t))}" type="mismatch">${xmlEscape(caseFailureText(t))}</failure>`);
      out.push(`      <system-out>${xmlEscape(t.steps.map((s) => `${s.success ? 'ok  ' : 'FAIL'} ${s.stepId}`).join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  if (results.error) out.push(`  <!-- ${xmlEscape(results.error).replace(/--/g, '- -')} -->`);
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** A plain-text report of a run. */
export function plainReport(results: RunResults): string {
  const lines: string[] = [];
  for (const [code, report] of Object.entries(results.reports)) {
    const failed = report.tests.filter((t) => !t.success).length;
    lines.push(`${code}: ${report.tests.length - failed} passed, ${failed} failed`);
    for (const t of report.tests) {
      lines.push(`  ${t.success ? 'PASS' : 'FAIL'} ${t.id} ${t.title} (${seconds(t.time)} s)`);
      if (!t.success)
        lines.push(
          ...caseFailureText(t)
            .split('\n')
            .map((l) => `      ${l}`),
        );
    }
  }
  if (results.error) lines.push(`Run error: ${results.error}`);
  lines.push(`Total time ${seconds(results.stats.totalTime)} s`, '');
  return lines.join('\n');
}

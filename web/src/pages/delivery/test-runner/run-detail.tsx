/**
 * The detail pane of one test run: per administrator its tests, each test's steps and results,
 * an 'Error message' alert for failed steps with their traceback; 25 step rows a page.
 */
import { Accordion, AccordionTab } from 'primereact/accordion';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import type { TestRun, TestStep } from '../../../api/test-runner';

/** Log rows per page in the detail pane (spec section 9). */
export const STEP_PAGE_SIZE = 25;

function StepResult({ step }: { step: TestStep }) {
  if (step.success) return <Tag severity="success" value="Passed" />;
  return <Tag severity="danger" value="Failed" />;
}

function StepDetail({ step }: { step: TestStep }) {
  if (step.error) {
    return (
      <div className="test-step-error">
        <Message severity="error" text={`Error message: ${step.error.message}`} />
        {step.error.traceback && (
          <pre className="test-traceback" aria-label="Traceback">
            {step.error.traceback}
          </pre>
        )}
      </div>
    );
  }
  return step.payload === undefined ? null : <code className="test-payload">{JSON.stringify(step.payload)}</code>;
}

/** Everything a run found, by administrator and test. */
export function RunDetail({ run }: { run: TestRun }) {
  const reports = Object.entries(run.results?.reports ?? {});
  const stats = run.results?.stats;
  return (
    <section aria-label={`Test run ${run.id}`} className="test-run-detail">
      <h3>
        Run {run.id}: {run.status}
      </h3>
      {stats?.totalTime != null && <p>Total time: {(stats.totalTime / 1000).toFixed(1)} s</p>}
      {run.results?.error && <Message severity="error" text={`Error message: ${run.results.error}`} />}
      {!reports.length && <p>No results yet.</p>}
      {reports.map(([code, report]) => (
        <div key={code}>
          <h4>{code}</h4>
          <Accordion multiple activeIndex={report.tests.map((t, i) => (t.success ? -1 : i)).filter((i) => i >= 0)}>
            {report.tests.map((t) => (
              <AccordionTab
                key={t.id}
                header={
                  <span>
                    {t.success ? '✔' : '✘'} Test {t.id}: {t.title}
                  </span>
                }
              >
                <DataTable
                  value={t.steps}
                  size="small"
                  paginator={t.steps.length > STEP_PAGE_SIZE}
                  rows={STEP_PAGE_SIZE}
                  dataKey="stepId"
                  emptyMessage="No data available"
                >
                  <Column field="stepId" header="Step" />
                  <Column header="Result" body={(s: TestStep) => <StepResult step={s} />} />
                  <Column header="Details" body={(s: TestStep) => <StepDetail step={s} />} />
                </DataTable>
              </AccordionTab>
            ))}
          </Accordion>
        </div>
      ))}
    </section>
  );
}

/**
 * Test runner (/test-runner, when enabled): 'Test suites listing' (runs with User, Administrators,
 * Test ids, Has errors, Status with cancel, Last update, Details; the detail pane) and 'Schedule
 * run'. Status changes arrive through the socket's 'test-run' events.
 */
import { useCallback, useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { TabPanel, TabView } from 'primereact/tabview';
import { fetchRun, fetchRuns, stopRun, type Suite, type TestRun } from '../../api/test-runner';
import { usePageTitle } from '../../components/use-page-title';
import { socketEvents } from '../../state/socket';
import { RunDetail } from './test-runner/run-detail';
import { ScheduleForm } from './test-runner/schedule-form';
import { displayDateTime } from '../../../../rules';

/** Runs per page (spec section 9: test runner tests 50). */
export const RUN_PAGE_SIZE = 50;
const ACTIVE = new Set(['pending', 'running']);
const when = (iso: string) => displayDateTime(iso);

export function TestRunnerPage() {
  usePageTitle('Test Runner');
  const [tab, setTab] = useState(0);
  const [rows, setRows] = useState<TestRun[]>([]);
  const [suites, setSuites] = useState<Suite[]>([]);
  const [count, setCount] = useState(0);
  const [offset, setOffset] = useState(0);
  const [loading, setLoading] = useState(true);
  const [detail, setDetail] = useState<TestRun | null>(null);

  const load = useCallback(
    async (at = offset) => {
      try {
        const list = await fetchRuns(at, RUN_PAGE_SIZE);
        setRows(list.rows);
        setSuites(list.suites);
        setCount(list.pagination.count);
      } catch {
        // the default error notification was shown
      } finally {
        setLoading(false);
      }
    },
    [offset],
  );

  useEffect(() => void load(), [load]);
  useEffect(() => socketEvents.on('test-run', () => void load()), [load]);
  useEffect(() => {
    // a run in progress is polled too, in case the socket is down
    if (!rows.some((r) => ACTIVE.has(r.status))) return;
    const timer = setInterval(() => void load(), 2000);
    return () => clearInterval(timer);
  }, [rows, load]);

  // keep the open detail in step with its row (status and results change while it runs)
  const detailRow = detail ? rows.find((r) => r.id === detail.id) : undefined;
  useEffect(() => {
    if (!detail || !detailRow) return;
    if (detailRow.status !== detail.status || detailRow.updated_at !== detail.updated_at)
      void fetchRun(detail.id)
        .then(setDetail)
        .catch(() => undefined);
  }, [detail, detailRow]);

  const open = async (run: TestRun) => {
    try {
      setDetail(await fetchRun(run.id));
    } catch {
      // shown by the default error handling
    }
  };

  const statusCell = (r: TestRun) => (
    <span className="run-status">
      {r.status}
      {ACTIVE.has(r.status) && (
        <Button icon="pi pi-times" text size="small" aria-label={`Cancel run ${r.id}`} onClick={() => void stopRun(r.id).then(() => load())} />
      )}
    </span>
  );

  return (
    <div className="page test-runner-page">
      <TabView activeIndex={tab} onTabChange={(e) => setTab(e.index)}>
        <TabPanel header="Test suites listing">
          <DataTable
            value={rows}
            loading={loading}
            dataKey="id"
            size="small"
            lazy
            paginator
            rows={RUN_PAGE_SIZE}
            totalRecords={count}
            first={offset}
            onPage={(e) => setOffset(e.first)}
            emptyMessage="No data available"
            selectionMode="single"
            onRowSelect={(e) => void open(e.data as TestRun)}
          >
            <Column field="user" header="User" />
            <Column header="Administrators" body={(r: TestRun) => r.administratorCodes.join(', ')} />
            <Column header="Test ids" body={(r: TestRun) => (r.testIds.length ? r.testIds.join(', ') : 'all')} />
            <Column header="Has errors" body={(r: TestRun) => (r.hasErrors ? 'Yes' : 'No')} />
            <Column header="Status" body={statusCell} />
            <Column header="Last update" body={(r: TestRun) => when(r.updated_at)} />
            <Column
              header="Details"
              body={(r: TestRun) => <Button label="Details" text size="small" onClick={() => void open(r)} aria-label={`Details of run ${r.id}`} />}
            />
          </DataTable>
          {detail && <RunDetail run={detail} />}
        </TabPanel>
        <TabPanel header="Schedule run">
          <ScheduleForm
            suites={suites}
            onScheduled={(run) => {
              setTab(0);
              void load(0);
              void open(run);
            }}
          />
        </TabPanel>
      </TabView>
    </div>
  );
}

/**
 * 'Schedule run': administrator multi-select, comma-separated test ids, Save. Sends
 * `POST /dev-tools/test-runner/schedule`; the server names unknown administrators or test ids.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { MultiSelect } from 'primereact/multiselect';
import { scheduleRun, type Suite, type TestRun } from '../../../api/test-runner';
import { notifySuccess } from '../../../state/notifications';

/** Splits '1, 2,3' into ['1', '2', '3']. */
export function parseTestIds(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function ScheduleForm({ suites, onScheduled }: { suites: Suite[]; onScheduled: (run: TestRun) => void }) {
  const [codes, setCodes] = useState<string[]>([]);
  const [ids, setIds] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const run = await scheduleRun(codes, parseTestIds(ids));
      notifySuccess(`Test run ${run.id} scheduled`);
      setIds('');
      onScheduled(run);
    } catch {
      // the default error notification names the problem
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="schedule-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label htmlFor="tr-admins">Administrators</label>
      <MultiSelect
        id="tr-admins-select"
        inputId="tr-admins"
        value={codes}
        onChange={(e) => setCodes(e.value)}
        display="chip"
        placeholder="Choose administrators"
        options={suites.map((s) => ({ label: `${s.administratorName} (${s.tests.length} tests)`, value: s.administratorCode }))}
      />
      <label htmlFor="tr-ids">Test ids</label>
      <InputText id="tr-ids" value={ids} onChange={(e) => setIds(e.target.value)} placeholder="e.g. 1, 2 (empty: all)" />
      <Button type="submit" label="Save" icon="pi pi-play" loading={saving} disabled={!codes.length} />
    </form>
  );
}

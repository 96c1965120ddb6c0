/**
 * A TPA's reminder schedule for missing files (docs/chasing.md "Configuring"): the days relative to
 * the data due date, from which late reminder the escalation contacts are copied in, and whether
 * the TPA is chased at all; its own or the install's. 'Change' overrides it for this TPA (the
 * server names a bad day under the field), 'Use the install's schedule' drops the override.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputNumber } from 'primereact/inputnumber';
import { InputSwitch } from 'primereact/inputswitch';
import { InputText } from 'primereact/inputtext';
import { scheduleWords } from '../../../../../rules';
import { fetchSchedule, saveSchedule, type ChaseSchedule } from '../../../api/chasing';
import type { ApiError } from '../../../api/errors';
import { notify } from '../../../state/notifications';

type Field = 'offsets' | 'escalateFrom';

export function ScheduleCard({ administratorId, tpaName, onChanged }: { administratorId: number; tpaName: string; onChanged: () => void }) {
  const [schedule, setSchedule] = useState<ChaseSchedule | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [offsets, setOffsets] = useState('');
  const [escalateFrom, setEscalateFrom] = useState<number | null>(null);
  const [enabled, setEnabled] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setEditing(false);
    setSchedule(null);
    fetchSchedule(administratorId).then(
      (s) => (setSchedule(s), setLoadError(null)),
      (err: ApiError) => setLoadError(err.message),
    );
  }, [administratorId]);

  const edit = () => {
    if (!schedule) return;
    setOffsets(schedule.offsets.join(','));
    setEscalateFrom(schedule.escalateFrom);
    setEnabled(schedule.enabled);
    setErrors({});
    setEditing(true);
  };
  const apply = async (body: Parameters<typeof saveSchedule>[1], done: string) => {
    setSaving(true);
    try {
      const s = await saveSchedule(administratorId, body);
      setSchedule(s);
      setEditing(false);
      notify({ severity: 'success', detail: done, life: 3000 });
      onChanged();
    } catch (err) {
      const api = err as ApiError;
      const byField: Partial<Record<Field, string>> = {};
      for (const x of api.errors) {
        const column = typeof x === 'object' && x ? String((x as { column?: string }).column ?? '') : '';
        if (typeof x === 'object' && (column === 'offsets' || column === 'escalateFrom')) byField[column] = String(x.message);
      }
      setErrors(byField);
      if (!Object.keys(byField).length) notify({ severity: 'error', summary: 'The schedule could not be saved', detail: api.message });
    } finally {
      setSaving(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void apply({ offsets, escalateFrom: escalateFrom ?? undefined, enabled }, `${tpaName} has its own reminder schedule`);
  };

  return (
    <section className="fa-card fa-schedule" aria-labelledby="fa-schedule-title">
      <div className="fa-card-head">
        <h2 id="fa-schedule-title">Reminder schedule</h2>
        {schedule && !editing && (
          <span className="fa-schedule-source" data-testid="schedule-source">
            {schedule.source === 'tpa' ? "The TPA's own" : "The install's"}
          </span>
        )}
      </div>
      {loadError ? (
        <div className="fa-error-banner" role="alert">
          {loadError}
        </div>
      ) : !schedule ? (
        <p className="fa-empty-text" role="status">
          Loading...
        </p>
      ) : !editing ? (
        <>
          <dl className="fa-schedule-facts">
            <dt>Missing files</dt>
            <dd data-testid="schedule-days">{schedule.enabled ? `chased ${scheduleWords(schedule.offsets)}` : 'not chased: chasing is off for this TPA'}</dd>
            <dt>Escalation contacts</dt>
            <dd>copied in from late reminder {schedule.escalateFrom} on</dd>
            <dt>Failed checks and returns</dt>
            <dd>mailed at the next run, then followed up on the days after the due date</dd>
          </dl>
          <div className="fa-fd-toolbar">
            <Button label="Change" icon="pi pi-pencil" size="small" outlined onClick={edit} />
            {schedule.source === 'tpa' && (
              <Button
                label="Use the install's schedule"
                size="small"
                text
                loading={saving}
                onClick={() => void apply({ reset: true }, `${tpaName} follows the install's schedule again`)}
              />
            )}
          </div>
        </>
      ) : (
        <form className="fa-schedule-form" onSubmit={submit} noValidate>
          <label htmlFor="fa-schedule-offsets">Days from the due date</label>
          <div>
            <InputText
              id="fa-schedule-offsets"
              value={offsets}
              onChange={(e) => (setOffsets(e.target.value), setErrors((x) => ({ ...x, offsets: undefined })))}
              autoFocus
              aria-invalid={errors.offsets ? true : undefined}
              aria-describedby={errors.offsets ? 'fa-schedule-offsets-error' : 'fa-schedule-offsets-hint'}
            />
            {errors.offsets ? (
              <small className="fa-field-error" id="fa-schedule-offsets-error" role="alert">
                {errors.offsets}
              </small>
            ) : (
              <small className="fa-muted" id="fa-schedule-offsets-hint">
                Comma-separated, negative before the due date: -3,0,3,7 is 3 days before, on the day, 3 and 7 days after.
              </small>
            )}
          </div>
          <label htmlFor="fa-schedule-escalate">Escalate from late reminder</label>
          <div>
            <InputNumber
              inputId="fa-schedule-escalate"
              value={escalateFrom}
              onValueChange={(e) => (setEscalateFrom(e.value ?? null), setErrors((x) => ({ ...x, escalateFrom: undefined })))}
              min={1}
              max={30}
              showButtons
              aria-invalid={errors.escalateFrom ? true : undefined}
            />
            {errors.escalateFrom && (
              <small className="fa-field-error" role="alert">
                {errors.escalateFrom}
              </small>
            )}
          </div>
          <label htmlFor="fa-schedule-enabled">Chase this TPA</label>
          <div>
            <InputSwitch inputId="fa-schedule-enabled" checked={enabled} onChange={(e) => setEnabled(Boolean(e.value))} />
          </div>
          <div className="fa-fd-toolbar fa-schedule-buttons">
            <Button label="Save schedule" icon="pi pi-check" size="small" type="submit" loading={saving} />
            <Button label="Cancel" size="small" text type="button" onClick={() => setEditing(false)} />
          </div>
        </form>
      )}
    </section>
  );
}

/**
 * The dialog of one adjustment type on Fund details (delivery spec, Fund details: pre-calc Bond
 * adjustment, post-calc UK apportionment, Main adjustment, HMRC adjustment, Distributions, Target
 * funds (preview), UK distributions, Flexible, Derivatives). Its header, hint, targets and
 * starting lines come from the type's rule (`rules/adjustments.ts`); the fields are checked by the
 * same rules as the server before sending, each error shown under its field, and the server's
 * answer is shown the same way. Enter in a field saves; Escape closes.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import {
  ADJUSTMENT_PHASE_LABELS,
  ADJUSTMENT_TARGET_LABELS,
  ADJUSTMENT_TARGET_SHORT_LABELS,
  ADJUSTMENT_TYPE_RULES,
  adjustmentProblems,
  ledgerTotal,
  type AdjustmentInput,
  type AdjustmentTarget,
  type AdjustmentType,
} from '../../../../../rules';
import { addAdjustment, saveAdjustment, type AdjustmentView } from '../../../api/adjustments';
import type { ApiError } from '../../../api/errors';

/** A line as typed: the amount stays text until saved. */
interface LineDraft {
  account: string;
  target: AdjustmentTarget;
  securityId: string;
  amount: string;
  description: string;
}

const emptyLine = (target: AdjustmentTarget): LineDraft => ({ account: '', target, securityId: '', amount: '', description: '' });

/** The lines a new adjustment of a type starts with: a debit and a credit for a double entry (a position first where it may revalue one). */
function startLines(type: AdjustmentType): LineDraft[] {
  const rule = ADJUSTMENT_TYPE_RULES[type];
  if (!rule.doubleEntry) return [emptyLine('tb_balance')];
  const ledger = [emptyLine('tb_balance'), emptyLine('tb_balance')];
  return rule.targets.includes('holding_value') && type !== 'flexible' ? [emptyLine('holding_value'), ...ledger] : ledger;
}

/** '1,250.50' or '-1 000' -> number; '' -> NaN. */
export const parseAmount = (text: string) => (text.trim() ? Number(text.replace(/[\s,]/g, '')) : Number.NaN);

const money = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function toInput(type: AdjustmentType, description: string, booked: boolean, lines: LineDraft[]): AdjustmentInput {
  return {
    type,
    description,
    bookedByTpa: booked,
    lines: lines.map((l) => ({
      account: l.account,
      target: l.target,
      ...(l.target === 'holding_value' ? { securityId: l.securityId } : {}),
      amount: parseAmount(l.amount),
      ...(l.description.trim() ? { description: l.description } : {}),
    })),
  };
}

/**
 * Puts the focus in the description once the dialog has shown, unless the user is already in one of
 * its fields (the dialog shows after its opening animation, and a field clicked or typed into before
 * then keeps the focus and what was typed).
 */
function focusDescriptionUnlessBusy(description: HTMLTextAreaElement | null) {
  const dialog = description?.closest('.p-dialog');
  const active = document.activeElement;
  if (dialog && active instanceof HTMLElement && dialog.contains(active) && active.matches('input, textarea, select, [role="combobox"]')) return;
  description?.focus();
}

/** Field -> message, from the rules' problems or the server's `{column, message}` errors. */
function byField(list: Array<{ field: string; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of list) out[p.field] ??= p.message;
  return out;
}

export function AdjustmentDialog({
  fundId,
  type,
  editing,
  onHide,
  onSaved,
}: {
  fundId: number;
  /** The type of a new adjustment; null when closed. */
  type: AdjustmentType | null;
  /** The adjustment being changed (its type wins). */
  editing: AdjustmentView | null;
  onHide: () => void;
  onSaved: (a: AdjustmentView) => void;
}) {
  const current = editing?.type ?? type;
  const rule = current ? ADJUSTMENT_TYPE_RULES[current] : null;
  // the dialog is mounted per adjustment opened (keyed by the tab), so its fields start from the props
  const [description, setDescription] = useState(editing?.description ?? '');
  const [booked, setBooked] = useState(editing?.bookedByTpa ?? false);
  const [lines, setLines] = useState<LineDraft[]>(() =>
    editing
      ? editing.lines.map((l) => ({
          account: l.account,
          target: l.target,
          securityId: l.securityId ?? '',
          amount: String(l.amount),
          description: l.description ?? '',
        }))
      : current
        ? startLines(current)
        : [],
  );
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLTextAreaElement>(null);

  const input = useMemo(() => (current ? toInput(current, description, booked, lines) : null), [current, description, booked, lines]);
  const problems = useMemo(() => byField(input ? adjustmentProblems(input) : []), [input]);
  const errors = tried ? { ...serverErrors, ...problems } : serverErrors;
  if (!current || !rule || !input) return null;

  const setLine = (i: number, patch: Partial<LineDraft>) => {
    setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
    setServerErrors({});
  };
  const total = ledgerTotal(input.lines.map((l) => ({ ...l, amount: Number.isFinite(l.amount) ? l.amount : 0 })));

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTried(true);
    if (Object.keys(problems).length) return;
    setSaving(true);
    setGeneral(null);
    try {
      const saved = editing ? await saveAdjustment(fundId, editing.id, input) : await addAdjustment(fundId, input);
      onSaved(saved);
    } catch (err) {
      const api = err as ApiError;
      // a 400 of the rules names each field: {column: 'lines[1].amount', message}
      const fields = (api.errors as unknown[]).filter(
        (x): x is { column: string; message: string } => typeof x === 'object' && x !== null && typeof (x as { column?: unknown }).column === 'string',
      );
      setServerErrors(byField(fields.map((f) => ({ field: f.column, message: f.message }))));
      setGeneral(fields.length ? (api.validationMessage ?? api.message) : api.message);
    } finally {
      setSaving(false);
    }
  };

  const fieldError = (field: string) =>
    errors[field] ? (
      <small className="fa-field-error" id={`fa-adj-err-${field}`} role="alert">
        {errors[field]}
      </small>
    ) : null;
  const described = (field: string) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': `fa-adj-err-${field}` } : {});

  const footer = (
    <div>
      <Button label="Cancel" text type="button" onClick={onHide} />
      <Button label={editing ? 'Save adjustment' : 'Add adjustment'} icon="pi pi-check" type="submit" form="fa-adj-form" loading={saving} />
    </div>
  );
  return (
    <Dialog
      header={`${editing ? 'Edit' : 'New'} ${rule.label}`}
      visible
      onHide={onHide}
      footer={footer}
      style={{ width: 'min(980px, 96vw)' }}
      onShow={() => focusDescriptionUnlessBusy(first.current)}
      className="fa-adj-dialog"
    >
      <form id="fa-adj-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="fa-adj-hint">
          <strong>{ADJUSTMENT_PHASE_LABELS[rule.phase]}</strong>
          {rule.doubleEntry ? ', double entry' : ', single-sided'}. {rule.hint}
        </p>
        <div className="fa-adj-fields">
          <label htmlFor="fa-adj-description">Description</label>
          <div>
            <InputTextarea
              id="fa-adj-description"
              ref={first}
              value={description}
              rows={2}
              autoResize
              onChange={(e) => setDescription(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) void submit(e as unknown as FormEvent);
              }}
              {...described('description')}
            />
            {fieldError('description')}
          </div>
          <label htmlFor="fa-adj-booked">Booked by TPA</label>
          <div className="fa-adj-booked">
            <Checkbox inputId="fa-adj-booked" checked={booked} onChange={(e) => setBooked(Boolean(e.checked))} />
            <span className="fa-muted">{booked ? 'Yes: the figures change' : 'No: listed as an unadjusted difference'}</span>
          </div>
        </div>
        <table className="fa-fd-table fa-adj-lines" aria-label="Lines">
          <thead>
            <tr>
              <th className="fa-adj-w-target">Target</th>
              <th className="fa-adj-w-code">Account</th>
              <th className="fa-adj-w-code">Security id</th>
              <th className="fa-adj-w-amount">Amount (fund currency, debit +)</th>
              <th>Line description</th>
              <th>
                <span className="fa-sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => {
              const at = `lines[${i}]`;
              return (
                <tr key={i}>
                  <td>
                    {rule.targets.length > 1 ? (
                      <Dropdown
                        value={l.target}
                        options={rule.targets.map((t) => ({ value: t, label: ADJUSTMENT_TARGET_SHORT_LABELS[t] }))}
                        tooltip={ADJUSTMENT_TARGET_LABELS[l.target]}
                        onChange={(e) => setLine(i, { target: e.value as AdjustmentTarget })}
                        aria-label={`Line ${i + 1} target`}
                      />
                    ) : (
                      <span title={ADJUSTMENT_TARGET_LABELS[l.target]}>{ADJUSTMENT_TARGET_SHORT_LABELS[l.target]}</span>
                    )}
                    {fieldError(`${at}.target`)}
                  </td>
                  <td>
                    <InputText
                      value={l.account}
                      onChange={(e) => setLine(i, { account: e.target.value })}
                      aria-label={`Line ${i + 1} account`}
                      placeholder="e.g. 11000"
                      {...described(`${at}.account`)}
                    />
                    {fieldError(`${at}.account`)}
                  </td>
                  <td>
                    {l.target === 'holding_value' ? (
                      <InputText
                        value={l.securityId}
                        onChange={(e) => setLine(i, { securityId: e.target.value })}
                        aria-label={`Line ${i + 1} security id`}
                        placeholder="ISIN / CUSIP"
                        {...described(`${at}.securityId`)}
                      />
                    ) : (
                      <span className="fa-muted">-</span>
                    )}
                    {fieldError(`${at}.securityId`)}
                  </td>
                  <td>
                    <InputText
                      value={l.amount}
                      inputMode="decimal"
                      onChange={(e) => setLine(i, { amount: e.target.value })}
                      aria-label={`Line ${i + 1} amount`}
                      placeholder="-1000.00"
                      className="fa-adj-amount"
                      {...described(`${at}.amount`)}
                    />
                    {fieldError(`${at}.amount`)}
                  </td>
                  <td>
                    <InputText value={l.description} onChange={(e) => setLine(i, { description: e.target.value })} aria-label={`Line ${i + 1} description`} />
                    {fieldError(`${at}.description`)}
                  </td>
                  <td>
                    <Button
                      icon="pi pi-times"
                      rounded
                      text
                      type="button"
                      severity="danger"
                      disabled={lines.length === 1}
                      aria-label={`Remove line ${i + 1}`}
                      onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="fa-fd-toolbar">
          <Button label="Add line" icon="pi pi-plus" size="small" text type="button" onClick={() => setLines((ls) => [...ls, emptyLine('tb_balance')])} />
          {rule.doubleEntry && (
            <span className={Math.abs(total) >= 0.005 ? 'fa-field-error' : 'fa-muted'} data-testid="adjustment-net">
              Trial balance lines net to {money(total)}
            </span>
          )}
        </div>
        {fieldError('lines')}
        {fieldError('type')}
        {general && (
          <p className="fa-field-error" role="alert">
            {general}
          </p>
        )}
      </form>
    </Dialog>
  );
}

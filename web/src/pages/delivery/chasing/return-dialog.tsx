/**
 * 'Return to TPA' (docs/chasing.md "Returned to the TPA"): a reviewer sends a file, or the whole
 * fund, back to the TPA with a reason, which is required (rules/chasing.ts `returnReasonProblem`).
 * The reason's error shows under the field; a refusal (already returned, a closed fund) shows in
 * the dialog. Ctrl+Enter sends, Escape closes.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { RETURN_REASON_MAX, returnReasonProblem } from '../../../../../rules';
import { returnToTpa, type ChaseView } from '../../../api/chasing';
import type { ApiError } from '../../../api/errors';

export interface ReturnTarget {
  fundId: number;
  fundName: string;
  /** The input file returned; null: the whole fund. */
  file: { id: number; filename: string } | null;
}

export function ReturnDialog({ target, onHide, onReturned }: { target: ReturnTarget; onHide: () => void; onReturned: (chase: ChaseView) => void }) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const what = target.file ? target.file.filename : target.fundName;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const problem = returnReasonProblem(reason);
    setFieldError(problem);
    setGeneral(null);
    if (problem) {
      field.current?.focus();
      return;
    }
    setSending(true);
    try {
      onReturned(await returnToTpa(target.fundId, reason.trim(), target.file?.id ?? null));
    } catch (err) {
      const api = err as ApiError;
      const onReason = api.errors.find((x) => typeof x === 'object' && x !== null && (x as { column?: string }).column === 'reason');
      if (onReason && typeof onReason === 'object') {
        setFieldError(String(onReason.message));
        field.current?.focus();
      } else setGeneral(api.message);
    } finally {
      setSending(false);
    }
  };

  const footer = (
    <div>
      <Button label="Cancel" text type="button" onClick={onHide} />
      <Button label="Return to TPA" icon="pi pi-reply" type="submit" form="fa-return-form" loading={sending} />
    </div>
  );
  return (
    <Dialog
      header={`Return ${what} to the TPA`}
      visible
      onHide={onHide}
      footer={footer}
      style={{ width: 'min(560px, 96vw)' }}
      onShow={() => field.current?.focus()}
      className="fa-return-dialog"
    >
      <form id="fa-return-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="fa-muted">
          {target.file ? 'The file goes' : 'The fund goes'} back to the TPA&apos;s contacts with the next chase run, with your reason. The chase closes by
          itself when {target.file ? 'a new file of this type' : 'a new delivery'} arrives.
        </p>
        {general && (
          <div className="fa-error-banner" role="alert">
            {general}
          </div>
        )}
        <label htmlFor="fa-return-reason" className="fa-return-label">
          Reason (required)
        </label>
        <InputTextarea
          id="fa-return-reason"
          ref={field}
          value={reason}
          rows={4}
          autoResize
          maxLength={RETURN_REASON_MAX}
          placeholder="What must the TPA correct? e.g. Prices are as of 30 November, not the period end"
          onChange={(e) => {
            setReason(e.target.value);
            if (fieldError) setFieldError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
          }}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? 'fa-return-reason-error' : 'fa-return-reason-hint'}
          className="fa-return-reason"
        />
        {fieldError ? (
          <small className="fa-field-error" id="fa-return-reason-error" role="alert">
            {fieldError}
          </small>
        ) : (
          <small className="fa-muted" id="fa-return-reason-hint">
            {RETURN_REASON_MAX - reason.length} characters left. Ctrl+Enter sends.
          </small>
        )}
      </form>
    </Dialog>
  );
}

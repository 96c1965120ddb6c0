/**
 * A secret shown once (generated API keys, a PowerBI file's token address): read-only text with a
 * Copy button and a note that it is not shown again. Copy uses the clipboard API, falling back to
 * selecting the text for Ctrl+C where the browser refuses.
 */
import { useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';

export interface SecretRevealProps {
  /** Accessible name of the secret's field, e.g. 'Sweeper key'. */
  label: string;
  value: string;
  /** Lines shown under the field (who it belongs to, until when). */
  details?: string[];
}

/** The secret with its copy control. */
export function SecretReveal({ label, value, details = [] }: SecretRevealProps) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<null | 'copied' | 'select'>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      input.current?.select();
      setCopied('select');
    }
  };
  return (
    <div className="fa-secret" role="group" aria-label={label}>
      <div className="fa-secret-row">
        <InputText ref={input} value={value} readOnly aria-label={label} className="fa-secret-value" onFocus={(e) => e.currentTarget.select()} />
        <Button type="button" icon="pi pi-copy" label="Copy" size="small" onClick={() => void copy()} />
      </div>
      <p className="fa-secret-note" role="status">
        {copied === 'copied' ? 'Copied to the clipboard. ' : copied === 'select' ? 'Selected: press Ctrl+C to copy. ' : ''}
        Copy it now: it is not shown again.
      </p>
      {details.map((d) => (
        <p key={d} className="fa-secret-detail">
          {d}
        </p>
      ))}
    </div>
  );
}

/**
 * The 'Bulk upload' modal (auditor spec 2.3, 5): drag-and-drop or browse for one .csv file; the
 * chosen file is held until Upload (shown only once a file is chosen), then the modal closes.
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';

/** Why a choice of files is refused, or null when it is one .csv file. */
export function csvChoiceError(files: ReadonlyArray<{ name: string }>): string | null {
  if (files.length === 0) return 'Choose a .csv file';
  if (files.length > 1) return 'Only one .csv file can be uploaded at a time';
  if (!/\.csv$/i.test(files[0].name)) return `${files[0].name} is not a .csv file`;
  return null;
}

/** The upload modal; `onUpload` receives the chosen file after the modal closed. */
export function BulkUploadModal({ visible, onHide, onUpload }: { visible: boolean; onHide: () => void; onUpload: (file: File) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (visible) {
      setFile(null);
      setError(null);
    }
  }, [visible]);

  const choose = (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    const problem = csvChoiceError(files);
    setError(problem);
    setFile(problem ? null : files[0]);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    choose(e.dataTransfer.files);
  };
  const upload = () => {
    if (!file) return;
    const chosen = file;
    onHide();
    onUpload(chosen);
  };

  return (
    <Dialog
      header="Bulk upload"
      visible={visible}
      onHide={onHide}
      className="fa-aud"
      style={{ width: 'min(520px, 95vw)' }}
      modal
      footer={
        <div className="fa-dialog-footer">
          <Button label="Cancel" outlined onClick={onHide} />
          {file && <Button label="Upload" icon="pi pi-upload" onClick={upload} />}
        </div>
      }
    >
      <div
        className={`fa-dropzone${over ? ' fa-over' : ''}`}
        role="button"
        tabIndex={0}
        aria-label="Drop a .csv file here or press to browse"
        onClick={() => input.current?.click()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            input.current?.click();
          }
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="bulk-dropzone"
      >
        <i className="pi pi-cloud-upload" style={{ fontSize: '2rem', color: 'var(--fa-brand)' }} aria-hidden="true" />
        <p style={{ margin: '.5rem 0 0' }}>Drag and drop the filled-in template here, or click to browse.</p>
        <p className="fa-muted" style={{ margin: '.25rem 0 0' }}>
          One .csv file only.
        </p>
      </div>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        data-testid="bulk-file-input"
        onChange={(e) => {
          choose(e.target.files);
          e.target.value = '';
        }}
      />
      {file && (
        <p data-testid="bulk-chosen-file">
          <i className="pi pi-file" aria-hidden="true" /> {file.name} <span className="fa-muted">({Math.max(1, Math.round(file.size / 1024))} KB)</span>
        </p>
      )}
      {error && (
        <p className="fa-field-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

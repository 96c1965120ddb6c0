/**
 * A file drop zone (PrimeReact FileUpload, custom upload): choose or drop files, then Upload.
 * While `disabled` (e.g. no administrator chosen yet) nothing can be chosen and `disabledHint`
 * says why. `onUpload` resolves true when the files were accepted (the chosen files are cleared).
 */
import { useRef, useState } from 'react';
import { FileUpload, type FileUploadHandlerEvent } from 'primereact/fileupload';

export interface UploadZoneProps {
  /** Accessible name of the zone. */
  label: string;
  onUpload: (files: File[]) => Promise<boolean>;
  disabled?: boolean;
  disabledHint?: string;
  multiple?: boolean;
  accept?: string;
  hint?: string;
  /** The Choose button's label (default 'Choose files'). */
  chooseLabel?: string;
}

/** Drop zone with Choose / Upload / Cancel. */
export function UploadZone({ label, onUpload, disabled = false, disabledHint, multiple = true, accept, hint, chooseLabel = 'Choose files' }: UploadZoneProps) {
  const ref = useRef<FileUpload>(null);
  const [busy, setBusy] = useState(false);

  const handler = async (e: FileUploadHandlerEvent) => {
    if (busy) return;
    setBusy(true);
    try {
      if (await onUpload(e.files)) e.options.clear();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={`fa-upload${disabled ? ' fa-upload-disabled' : ''}`} role="group" aria-label={label} data-disabled={disabled}>
      <FileUpload
        ref={ref}
        name="upload"
        multiple={multiple}
        accept={accept}
        customUpload
        uploadHandler={(e) => void handler(e)}
        disabled={disabled || busy}
        chooseLabel={chooseLabel}
        uploadLabel={busy ? 'Uploading...' : 'Upload'}
        cancelLabel="Cancel"
        // PrimeReact hides Upload and Cancel from assistive technology and gives Choose no role
        pt={{
          chooseButton: { role: 'button', 'aria-disabled': disabled || busy },
          uploadButton: { root: { 'aria-hidden': 'false' } },
          cancelButton: { root: { 'aria-hidden': 'false' } },
        }}
        emptyTemplate={
          <div className="fa-drop-hint">
            <i className="pi pi-cloud-upload" aria-hidden="true" />
            <span>{disabled && disabledHint ? disabledHint : 'Drag and drop files here to upload.'}</span>
            {hint && <small>{hint}</small>}
          </div>
        }
      />
    </div>
  );
}

/**
 * Step 3 of the Self-Onboarding wizard: master mappings. One csv per mapping type, uploaded one
 * at a time and named after its type; a chip state per type; Validate (only with uploaded files);
 * 'Save & Next' once the needed mappings are valid. Validation errors show as banners with a
 * summary and an overflow footer; a refused save shows as a banner too, saying its reason once.
 */
import { useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { createSdmUpload, validateMappings, type MappingValidation, type SdmUpload } from '../../../api/self-onboarding';
import { ApiError, errorText } from '../../../api/errors';
import { notify } from '../../../state/notifications';
import { canSaveMappings, chipState, INVALID_MAPPING_FILE, MAPPING_TYPES, mappingTypeOf, touchedMappings, type ChipState } from './wizard-state';

const CHIP_STYLE: Record<ChipState, { icon: string; className: string }> = {
  'not uploaded': { icon: 'pi pi-circle', className: '' },
  uploaded: { icon: 'pi pi-upload', className: 'fa-tag-running' },
  'uploaded and invalid': { icon: 'pi pi-times-circle', className: 'fa-tag-error' },
  'uploaded and valid': { icon: 'pi pi-check-circle', className: 'fa-tag-done' },
  'existing and unchanged': { icon: 'pi pi-database', className: '' },
  'existing and replaced': { icon: 'pi pi-sync', className: 'fa-tag-pending' },
};

/** A validation banner: summary, listed errors and the overflow footer. */
function ValidationBanner({ type, result }: { type: string; result: MappingValidation }) {
  const more = result.totalErrorsFound - result.errors.length;
  return (
    <div className="fa-error-banner" role="alert">
      <strong>
        {type}: {result.error ?? 'invalid'}
      </strong>
      <ul>
        {result.errors.map((e, i) => (
          <li key={i}>{e}</li>
        ))}
      </ul>
      {more > 0 && <p style={{ margin: 0 }}>{more} more errors detected. Check uploaded file for details.</p>}
    </div>
  );
}

/**
 * What a refused Save & Next says: the server's message and up to 5 of its errors, without the
 * error that only repeats the message (the server lists a lone message as its one error too).
 */
export function saveRefusal(err: unknown): { message: string; errors: string[] } {
  if (!(err instanceof ApiError)) return { message: 'An error occurred', errors: [] };
  const message = err.message.trim();
  const errors = [...new Set(err.errors.map(errorText).map((t) => t.trim()))].filter((t) => t !== '' && t !== message);
  return { message, errors: errors.slice(0, 5) };
}

/** The master mappings step. */
export function MappingsStep({
  code,
  name,
  existingTypes,
  onBack,
  onSaved,
}: {
  code: string;
  name?: string;
  existingTypes: readonly string[];
  onBack: () => void;
  onSaved: (upload: SdmUpload) => void;
}) {
  const [files, setFiles] = useState<Record<string, File>>({});
  const [results, setResults] = useState<Record<string, MappingValidation>>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'validate' | 'save' | null>(null);
  // why Save & Next was refused (shown once, in place: the message and the errors it does not repeat)
  const [saveError, setSaveError] = useState<{ message: string; errors: string[] } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const uploadedTypes = Object.keys(files);

  const choose = (list: FileList | null) => {
    const file = list?.[0];
    if (!file) return;
    const type = mappingTypeOf(file.name);
    if (!type) {
      setFileError(INVALID_MAPPING_FILE);
      return;
    }
    setFileError(null);
    setSaveError(null);
    setFiles((f) => ({ ...f, [type]: file }));
    setResults((r) => {
      const next = { ...r };
      delete next[type];
      return next;
    });
  };

  const validate = async () => {
    setBusy('validate');
    try {
      setResults(await validateMappings(Object.values(files), code));
    } catch (err) {
      notify({ severity: 'error', detail: err instanceof ApiError ? err.message : 'Validation failed' });
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    setBusy('save');
    setSaveError(null);
    try {
      onSaved(await createSdmUpload(Object.values(files), code, name, touchedMappings(existingTypes, uploadedTypes)));
    } catch (err) {
      setSaveError(saveRefusal(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="fa-aud-card" data-testid="sdm-mappings">
      <h3 style={{ marginTop: 0 }}>Master mappings of {code}</h3>
      <p className="fa-muted">Upload one .csv file per mapping type, named after the type (for example account_mapping.csv).</p>
      <ul style={{ listStyle: 'none', padding: 0, display: 'grid', gap: '.4rem' }} aria-label="Mapping types">
        {MAPPING_TYPES.map((t) => {
          const state = chipState(existingTypes.includes(t), Boolean(files[t]), results[t]);
          const style = CHIP_STYLE[state];
          return (
            <li key={t} className="fa-chip-state" data-type={t}>
              <code style={{ minWidth: '13rem', display: 'inline-block' }}>{t}</code>
              <span className={`fa-tag ${style.className}`} data-testid={`chip-${t}`}>
                <i className={style.icon} aria-hidden="true" /> {state}
              </span>
              {files[t] && <span className="fa-muted">{files[t].name}</span>}
            </li>
          );
        })}
      </ul>
      {fileError && (
        <p className="fa-field-error" role="alert">
          {fileError}
        </p>
      )}
      <input
        ref={input}
        type="file"
        accept=".csv"
        hidden
        data-testid="sdm-mapping-input"
        onChange={(e) => {
          choose(e.target.files);
          e.target.value = '';
        }}
      />
      {saveError && (
        <div className="fa-error-banner" role="alert" data-testid="sdm-save-error">
          <strong>The mappings could not be saved: {saveError.message}</strong>
          {saveError.errors.length > 0 && (
            <ul>
              {saveError.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {Object.entries(results)
        .filter(([, r]) => !r.valid)
        .map(([t, r]) => (
          <ValidationBanner key={t} type={t} result={r} />
        ))}
      <div className="fa-aud-toolbar" style={{ marginTop: '1rem' }}>
        <Button label="Back" icon="pi pi-arrow-left" outlined onClick={onBack} />
        <Button label="Upload mapping file" icon="pi pi-upload" outlined onClick={() => input.current?.click()} />
        <Button
          label="Validate"
          icon="pi pi-check"
          outlined
          disabled={!uploadedTypes.length || busy !== null}
          loading={busy === 'validate'}
          onClick={() => void validate()}
        />
        {!uploadedTypes.length && <span className="fa-muted">In order to validate, upload mapping files</span>}
        <span className="fa-grow" />
        <Button
          label="Save & Next"
          icon="pi pi-arrow-right"
          iconPos="right"
          disabled={!canSaveMappings(existingTypes, uploadedTypes, results) || busy !== null}
          loading={busy === 'save'}
          onClick={() => void save()}
        />
      </div>
    </div>
  );
}

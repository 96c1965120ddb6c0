/**
 * The custom-mapping upload form (auditor spec 2.3, 5, 8; delivery Live mappings): administrator,
 * type and mode, name, client and reason, then the csv; the upload is enabled once they are
 * valid, and a failed upload shows its errors in a banner.
 */
import { useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { uploadCustomMapping, type MappingRow } from '../../api/custom-mappings';
import { ApiError, errorText } from '../../api/errors';
import { notify } from '../../state/notifications';
import { administratorsWithMappings, canUpload, formErrors, MAPPING_TYPES, type MappingForm } from './mapping-rules';

/** A banner of a failed upload. */
interface UploadBanner {
  title: string;
  errors: string[];
  more: number;
}

const EMPTY: MappingForm = { administrator: null, mappingType: null, mode: 'custom', name: '', clientName: '', rationale: '', customId: null };

/**
 * The upload form: administrator, type and mode, then the csv. `allowMaster` (delivery Live
 * mappings) adds the master mode, which replaces the TPA's master mapping of that type.
 */
export function UploadForm({
  mappings,
  onUploaded,
  allowMaster = false,
  title = 'Create or update a custom mapping',
}: {
  mappings: readonly MappingRow[];
  onUploaded: () => void;
  allowMaster?: boolean;
  title?: string;
}) {
  const [form, setForm] = useState<MappingForm>(EMPTY);
  const [banner, setBanner] = useState<UploadBanner | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const errors = formErrors(form, mappings);
  const set = (patch: Partial<MappingForm>) => setForm((f) => ({ ...f, ...patch }));
  const customs = mappings.filter((m) => m.kind === 'custom' && m.administrator.code === form.administrator && m.type === form.mappingType);
  const touched = (k: keyof MappingForm) => form[k] !== EMPTY[k];

  const upload = async (file: File | undefined) => {
    if (!file || !form.administrator || !form.mappingType || !form.mode) return;
    setBusy(true);
    setBanner(null);
    try {
      await uploadCustomMapping({
        administrator: form.administrator,
        mappingType: form.mappingType,
        mappingMode: form.mode,
        file,
        ...(form.mode === 'custom'
          ? { mappingName: form.name, clientName: form.clientName.trim() || undefined, rationale: form.rationale.trim() }
          : form.mode === 'update-custom'
            ? { customId: form.customId ?? undefined, rationale: form.rationale.trim() || undefined }
            : { rationale: form.rationale.trim() || undefined }),
      });
      notify({ severity: 'success', detail: `${file.name} uploaded`, life: 2400 });
      setForm((f) => ({ ...f, name: '', clientName: '', rationale: '', customId: null }));
      onUploaded();
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError({ status: 0 });
      const list = e.errors.map(errorText);
      if (e.status === 400 && e.totalErrorsFound !== undefined && e.validationMessage) {
        setBanner({ title: e.validationMessage, errors: list.filter((t) => t !== e.validationMessage), more: Math.max(0, e.totalErrorsFound - list.length) });
      } else {
        setBanner({ title: form.mode === 'custom' ? 'Error creating mapping' : 'Error updating mapping', errors: list, more: 0 });
      }
    } finally {
      setBusy(false);
    }
  };

  // a change of an existing mapping records its reason with the new version (optional)
  const changeReason = (
    <>
      <label htmlFor="fa-cm-change-reason">Reason for the change</label>
      <InputText
        id="fa-cm-change-reason"
        value={form.rationale}
        maxLength={200}
        placeholder="Recorded with the new version"
        onChange={(e) => set({ rationale: e.target.value })}
      />
    </>
  );

  return (
    <section className="fa-aud-card" aria-labelledby="fa-cm-upload">
      <h3 id="fa-cm-upload" style={{ marginTop: 0 }}>
        {title}
      </h3>
      <div className="fa-field-grid">
        <label htmlFor="fa-cm-admin">Administrator</label>
        <Dropdown
          inputId="fa-cm-admin"
          value={form.administrator}
          options={administratorsWithMappings(mappings).map((a) => ({ value: a.code, label: a.name }))}
          onChange={(e) => set({ administrator: e.value, customId: null })}
          placeholder="Select an administrator"
        />
        <label htmlFor="fa-cm-type">Mapping type</label>
        <Dropdown
          inputId="fa-cm-type"
          value={form.mappingType}
          options={MAPPING_TYPES.map((t) => ({ value: t, label: t }))}
          onChange={(e) => set({ mappingType: e.value, customId: null })}
          placeholder="Select a mapping type"
        />
        <label htmlFor="fa-cm-mode">Mode</label>
        <Dropdown
          inputId="fa-cm-mode"
          value={form.mode}
          options={[
            ...(allowMaster ? [{ value: 'master', label: 'Master (replace)' }] : []),
            { value: 'custom', label: 'Create new' },
            { value: 'update-custom', label: 'Update existing' },
          ]}
          onChange={(e) => set({ mode: e.value })}
        />
        {form.mode === 'master' ? (
          changeReason
        ) : form.mode === 'custom' ? (
          <>
            <label htmlFor="fa-cm-name">Mapping name</label>
            <div>
              <InputText
                id="fa-cm-name"
                value={form.name}
                onChange={(e) => set({ name: e.target.value })}
                aria-invalid={Boolean(touched('name') && errors.name)}
              />
              {touched('name') && errors.name && <div className="fa-field-error">{errors.name}</div>}
            </div>
            <label htmlFor="fa-cm-client">Client name</label>
            <div>
              <InputText id="fa-cm-client" value={form.clientName} onChange={(e) => set({ clientName: e.target.value })} />
              {errors.clientName && <div className="fa-field-error">{errors.clientName}</div>}
            </div>
            <label htmlFor="fa-cm-reason">Reason for creating</label>
            <div>
              <InputText id="fa-cm-reason" value={form.rationale} maxLength={50} onChange={(e) => set({ rationale: e.target.value })} />
              {touched('rationale') && errors.rationale && <div className="fa-field-error">{errors.rationale}</div>}
            </div>
          </>
        ) : (
          <>
            <label htmlFor="fa-cm-existing">Custom mapping</label>
            <Dropdown
              inputId="fa-cm-existing"
              value={form.customId}
              options={customs.map((m) => ({ value: m.id, label: m.description }))}
              onChange={(e) => set({ customId: e.value })}
              placeholder={customs.length ? 'Select a custom mapping' : 'No custom mapping of this type'}
            />
            {changeReason}
          </>
        )}
      </div>
      <div className="fa-aud-toolbar" style={{ marginTop: '.75rem' }}>
        <Button
          label="Upload mapping csv"
          icon="pi pi-upload"
          disabled={!canUpload(form, mappings) || busy}
          loading={busy}
          onClick={() => input.current?.click()}
        />
        <input
          ref={input}
          type="file"
          accept=".csv"
          hidden
          data-testid="custom-mapping-input"
          onChange={(e) => {
            void upload(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      {banner && (
        <div className="fa-error-banner" role="alert">
          <strong>{banner.title}</strong>
          {banner.errors.length > 0 && (
            <ul>
              {banner.errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          )}
          {banner.more > 0 && <p style={{ margin: 0 }}>{banner.more} more errors detected. Check uploaded file for details.</p>}
        </div>
      )}
    </section>
  );
}

/**
 * The Self-Onboarding wizard of WAM Tools (auditor spec 2.4; config.sdmUpload): Select TPA, Create
 * TPA, Master mappings, Drop files, Process. Upload files follow 'upload-file' socket events
 * (a pushed file replaces the one with its id).
 */
import { useEffect, useState } from 'react';
import { fetchSdmTpas, processSdmUpload, type SdmFile, type SdmTpa, type SdmUpload } from '../../../api/self-onboarding';
import { notify } from '../../../state/notifications';
import { socketEvents } from '../../../state/socket';
import { FilesStep } from './files-step';
import { MappingsStep } from './mappings-step';
import { ProcessStep } from './process-step';
import { CreateTpaStep, SelectTpaStep } from './tpa-steps';
import { mergeFile, stepForUpload, WIZARD_STEPS, type WizardStep } from './wizard-state';

/** The wizard. */
export function SelfOnboarding() {
  const [step, setStep] = useState<WizardStep>('SelectTpa');
  const [tpas, setTpas] = useState<SdmTpa[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [newCode, setNewCode] = useState('');
  const [newName, setNewName] = useState('');
  const [creating, setCreating] = useState(false);
  const [upload, setUpload] = useState<SdmUpload | null>(null);
  const [files, setFiles] = useState<SdmFile[]>([]);
  const [processing, setProcessing] = useState(false);

  useEffect(() => {
    fetchSdmTpas().then(setTpas, () => undefined);
  }, []);

  useEffect(() => {
    if (!upload) return;
    return socketEvents.on('upload-file', (data) => {
      const msg = data as { sdmUploadId?: number; file?: SdmFile } | null;
      if (msg?.file && msg.sdmUploadId === upload.id) setFiles((list) => mergeFile(list, msg.file!));
    });
  }, [upload]);

  const code = creating ? newCode : (chosen ?? '');
  const existingTypes = creating ? [] : [...new Set((tpas.find((t) => t.code === chosen)?.mappings ?? []).map((m) => m.type))];

  const restart = () => {
    setStep('SelectTpa');
    setUpload(null);
    setFiles([]);
    setCreating(false);
    setNewCode('');
    setNewName('');
    fetchSdmTpas().then(setTpas, () => undefined);
  };

  const onSaved = (u: SdmUpload) => {
    setUpload(u);
    setFiles(u.uploaded_files);
    setStep(stepForUpload(u));
  };

  const process = async (forceRun: boolean) => {
    if (!upload) return;
    setProcessing(true);
    setStep('Review');
    try {
      const u = await processSdmUpload(upload.id, forceRun);
      setFiles(u.uploaded_files);
      if (u.warnings.length) notify({ severity: 'warn', summary: 'Processed with warnings', detail: u.warnings.join('\n') });
    } catch {
      setStep('Files');
    } finally {
      setProcessing(false);
    }
  };

  const current = WIZARD_STEPS.findIndex((s) => s.key === step);
  const tpaLabel = creating ? newName || newCode : (tpas.find((t) => t.code === chosen)?.name ?? code);
  return (
    <div data-testid="self-onboarding">
      <ol className="fa-wizard-steps" aria-label="Self-Onboarding steps">
        {WIZARD_STEPS.map((s, i) => (
          <li key={s.key} aria-current={i === current ? 'step' : undefined}>
            {i + 1}. {s.label}
          </li>
        ))}
      </ol>
      {step === 'SelectTpa' && (
        <SelectTpaStep
          tpas={tpas}
          chosen={chosen}
          onChoose={setChosen}
          onNext={() => {
            setCreating(false);
            setStep('MasterMappings');
          }}
          onCreate={() => {
            setCreating(true);
            setStep('CreateTpa');
          }}
        />
      )}
      {step === 'CreateTpa' && (
        <CreateTpaStep
          code={newCode}
          name={newName}
          onChange={(c, n) => {
            setNewCode(c);
            setNewName(n);
          }}
          onBack={() => {
            setCreating(false);
            setStep('SelectTpa');
          }}
          onNext={() => setStep('MasterMappings')}
        />
      )}
      {step === 'MasterMappings' && (
        <MappingsStep
          code={code}
          name={creating ? newName.trim() || undefined : undefined}
          existingTypes={existingTypes}
          onBack={() => setStep(creating ? 'CreateTpa' : 'SelectTpa')}
          onSaved={onSaved}
        />
      )}
      {step === 'Files' && upload && (
        <FilesStep
          uploadId={upload.id}
          files={files}
          onFile={(f) => setFiles((list) => mergeFile(list, f))}
          onBack={restart}
          onProcess={(force) => void process(force)}
          processing={processing}
        />
      )}
      {step === 'Review' && <ProcessStep files={files} tpa={tpaLabel} onRestart={restart} />}
    </div>
  );
}

/**
 * Settings, database actions (delivery spec section 5: disabled unless the environment is local;
 * section 7 `POST /dev-tools/db/reset`, `/clear`, `/populate`, `/populate/force-master-mappings`,
 * `/populate/administrators {region}`, `/dev-tools/tables/drop`). Destructive actions ask first;
 * dropping the tables ends every session, so the page takes the new session the server answers
 * for the caller and reloads.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button } from 'primereact/button';
import { confirmDialog } from 'primereact/confirmdialog';
import { Dropdown } from 'primereact/dropdown';
import { clearDb, dropTables, forceMasterMappings, populateAdministrators, populateDb, resetDb } from '../../../api/dev-tools';
import { useSnapshot } from 'valtio';
import { notify } from '../../../state/notifications';
import { loadNrd, nrdStore, optionsOf } from '../../../state/nrd';
import { setToken } from '../../../state/session';

const rows = (removed: Record<string, number>) => Object.values(removed).reduce((a, b) => a + b, 0);

interface Action {
  key: string;
  label: string;
  icon: string;
  /** The question asked first (destructive actions). */
  confirm?: { header: string; message: string; accept: string };
  run: () => Promise<string>;
}

const ACTIONS: Action[] = [
  {
    key: 'populate',
    label: 'Populate',
    icon: 'pi pi-database',
    run: async () => {
      const p = await populateDb();
      return `Demo data loaded: ${p.administrators.length} administrators, ${p.masterMappings} master mappings, ${p.fundRequests} fund requests${p.skipped ? ` (${p.skipped} skipped: ${p.skippedReason ?? 'not valid'})` : ''}`;
    },
  },
  {
    key: 'force',
    label: 'Force master mappings',
    icon: 'pi pi-sitemap',
    confirm: {
      header: 'Force master mappings',
      message: 'Replace the master mappings of every administrator with the shipped ones? Funds whose mappings change are processed again.',
      accept: 'Replace',
    },
    run: async () => {
      const r = await forceMasterMappings();
      const changed = r.administrators.filter((a) => a.changed.length);
      return changed.length
        ? `Master mappings replaced for ${changed.map((a) => `${a.administrator} (${a.changed.join(', ')})`).join('; ')}`
        : 'Master mappings already matched the shipped ones';
    },
  },
  {
    key: 'clear',
    label: 'Clear',
    icon: 'pi pi-eraser',
    confirm: {
      header: 'Clear the database',
      message:
        'Remove every fund request with its files, imports, exports, test runs, PowerBI inputs, custom mappings and saved filters? Users, administrators and master mappings stay.',
      accept: 'Clear',
    },
    run: async () => `Database cleared: ${rows((await clearDb()).removed)} rows removed`,
  },
  {
    key: 'reset',
    label: 'Reset',
    icon: 'pi pi-replay',
    confirm: {
      header: 'Reset the database',
      message: 'Remove all audit work, administrators and their mappings, then load the demo data again?',
      accept: 'Reset',
    },
    run: async () => {
      const r = await resetDb();
      return `Database reset: ${rows(r.removed)} rows removed, ${r.populated.fundRequests} demo fund requests loaded`;
    },
  },
];

/** The database action buttons. */
export function DatabaseActions({ local }: { local: boolean }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [region, setRegion] = useState<string | null>(null);
  const { nrd } = useSnapshot(nrdStore);
  // regions of the reference data (`regions`)
  const regions = useMemo(() => optionsOf(nrd?.regions), [nrd]);
  useEffect(() => void loadNrd(), []);

  const run = async (key: string, task: () => Promise<string>) => {
    setBusy(key);
    try {
      notify({ severity: 'success', detail: await task(), life: 5000 });
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(null);
    }
  };
  const start = (a: Action) => {
    if (!a.confirm) return void run(a.key, a.run);
    confirmDialog({
      header: a.confirm.header,
      message: a.confirm.message,
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: a.confirm.accept,
      rejectLabel: 'Cancel',
      acceptClassName: 'p-button-danger',
      defaultFocus: 'reject',
      accept: () => void run(a.key, a.run),
    });
  };
  const drop = () =>
    confirmDialog({
      header: 'Drop all tables',
      message: 'Drop every table and rebuild an empty database? All data, users and sessions are lost; you stay signed in as yourself.',
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: 'Drop tables',
      rejectLabel: 'Cancel',
      acceptClassName: 'p-button-danger',
      defaultFocus: 'reject',
      accept: () =>
        void run('drop', async () => {
          const r = await dropTables();
          setToken(r.token);
          setTimeout(() => window.location.reload(), 1500);
          return `${r.dropped.length} tables dropped and the schema rebuilt; reloading`;
        }),
    });

  const disabled = !local || busy !== null;
  return (
    <section className="fa-card" aria-labelledby="fa-dev-db">
      <h2 id="fa-dev-db">Database</h2>
      {!local && (
        <p className="fa-empty-text" role="note">
          Database actions are only available in a local environment.
        </p>
      )}
      <div className="fa-toolbar" role="toolbar" aria-label="Database actions">
        {ACTIONS.map((a) => (
          <Button
            key={a.key}
            type="button"
            label={a.label}
            icon={a.icon}
            size="small"
            outlined
            severity={a.confirm ? 'danger' : undefined}
            loading={busy === a.key}
            disabled={disabled}
            onClick={() => start(a)}
          />
        ))}
        <Button
          type="button"
          label="Drop tables"
          icon="pi pi-trash"
          size="small"
          severity="danger"
          loading={busy === 'drop'}
          disabled={disabled}
          onClick={drop}
        />
      </div>
      <div className="fa-toolbar">
        <label htmlFor="fa-dev-region">Administrators of a region</label>
        <Dropdown
          inputId="fa-dev-region"
          value={region}
          options={regions}
          onChange={(e) => setRegion(e.value as string)}
          placeholder="Choose a region"
          disabled={!local}
        />
        <Button
          type="button"
          label="Add administrators"
          icon="pi pi-plus"
          size="small"
          outlined
          loading={busy === 'region'}
          disabled={disabled || !region}
          onClick={() =>
            void run('region', async () => {
              const r = await populateAdministrators(region!);
              return r.administrators.length
                ? `Administrators added (${r.region}): ${r.administrators.join(', ')}`
                : `Every shipped administrator of ${r.region} exists already`;
            })
          }
        />
      </div>
    </section>
  );
}

/**
 * Key generator (/api-key-generator; delivery spec "Developer tools": sections Sweeper, Canvas,
 * Worker, Test user key, Test runner key, each with 'Generate new key'; section 7 `GET
 * /key/sweeper`, `/key/canvas`, `/key/worker`, `/key/test-runner`, `/dev-tools/user/key/system`).
 * Only with dev tools in a local environment (route gate and server group). A new key replaces the
 * service's earlier one, so the button asks first; the key is shown once with a copy button.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog, confirmDialog } from 'primereact/confirmdialog';
import { generateKey, KEY_SECTIONS, type GeneratedKey } from '../../api/dev-tools';
import { SecretReveal } from '../../components/secret-reveal';
import { usePageTitle } from '../../components/use-page-title';
import './delivery.css';
import './dev-tools.css';
import { displayDate } from '../../../../rules';

type Section = (typeof KEY_SECTIONS)[number];

/** One service's section. */
function KeySection({ section }: { section: Section }) {
  const [key, setKey] = useState<GeneratedKey | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `fa-key-${section.path.replace(/\W+/g, '-')}`;

  const generate = async () => {
    setBusy(true);
    try {
      setKey(await generateKey(section.operation));
    } catch {
      // the default error notification was shown
    } finally {
      setBusy(false);
    }
  };
  const ask = () =>
    confirmDialog({
      header: `New ${section.title} key`,
      message: `Generate a new ${section.title} key? The key given out before stops working at once.`,
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: 'Generate',
      rejectLabel: 'Cancel',
      defaultFocus: 'reject',
      accept: () => void generate(),
    });

  return (
    <section className="fa-card fa-key-section" aria-labelledby={id}>
      <div className="fa-card-head">
        <h2 id={id}>{section.title}</h2>
        <Button type="button" label="Generate new key" icon="pi pi-key" size="small" loading={busy} onClick={ask} />
      </div>
      {key ? (
        <SecretReveal
          label={`${section.title} key`}
          value={key.token}
          details={[
            `Signs in as ${key.name} (${key.email}, ${key.role}); valid until ${displayDate(key.expiresAt)}.`,
            ...(key.revoked ? [`${key.revoked} earlier key${key.revoked === 1 ? ' was' : 's were'} revoked.`] : []),
          ]}
        />
      ) : (
        <p className="fa-empty-text">No key shown. Keys are stored only as hashes: generate a new one to see it.</p>
      )}
    </section>
  );
}

/** The key generator page. */
export function KeyGeneratorPage() {
  usePageTitle('Key generator');
  return (
    <section className="fa-page fa-key-page" aria-labelledby="fa-keys-title">
      <div className="fa-page-head">
        <h1 id="fa-keys-title">Key generator</h1>
      </div>
      <p className="fa-page-intro">
        API keys for the services that call Fund Audit; send a key in the <code>x-access-token</code> header.
      </p>
      <div className="fa-card-grid">
        {KEY_SECTIONS.map((s) => (
          <KeySection key={s.path} section={s} />
        ))}
      </div>
      <ConfirmDialog />
    </section>
  );
}

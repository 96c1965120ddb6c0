/**
 * WAM Wiki (`/wiki`, auditor spec 2.5): one Wiki tab with the sections of titled links and mail
 * items from `GET /wiki-data`, plus the data sandbox and sample outputs. Links to the API that need
 * a download token get one first; links inside the application stay in it.
 */
import { withBase } from '../../api/base-path';
import { useCallback, useEffect, useState } from 'react';
import { TabPanel, TabView } from 'primereact/tabview';
import { Link } from 'wouter';
import { downloadWithToken, fetchWiki } from '../../api/auditor';
import type { WikiData, WikiItem } from '../../api/auditor-types';
import { ApiError } from '../../api/errors';
import { usePageTitle } from '../../components/use-page-title';

/** One wiki item: a link (API download, page of the app or external) or a mail address. */
export function WikiEntry({ item }: { item: WikiItem }) {
  let anchor;
  if (item.type === 'mail') {
    anchor = (
      <a href={`mailto:${item.email ?? ''}`}>
        <i className="pi pi-envelope" aria-hidden="true" /> {item.title}
      </a>
    );
  } else if (item.url?.startsWith('/api/')) {
    const path = item.url;
    anchor = (
      <a
        href={withBase(path)}
        onClick={(e) => {
          e.preventDefault();
          void downloadWithToken(path, { inPlace: true });
        }}
      >
        <i className="pi pi-download" aria-hidden="true" /> {item.title}
      </a>
    );
  } else if (item.url?.startsWith('/')) {
    anchor = (
      <Link href={item.url}>
        <i className="pi pi-link" aria-hidden="true" /> {item.title}
      </Link>
    );
  } else {
    anchor = (
      <a href={item.url} target="_blank" rel="noopener noreferrer">
        <i className="pi pi-external-link" aria-hidden="true" /> {item.title}
        <span className="fa-sr-only"> (opens in a new window)</span>
      </a>
    );
  }
  return (
    <li>
      {anchor}
      {item.type === 'mail' && item.email && <span className="fa-muted"> - {item.email}</span>}
      {item.description && <div className="fa-muted">{item.description}</div>}
    </li>
  );
}

/** A titled group of wiki items. */
function WikiSection({ title, items }: { title: string; items: readonly WikiItem[] }) {
  const id = `fa-wiki-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section className="fa-aud-card" aria-labelledby={id} data-testid="wiki-section">
      <h2 id={id}>{title}</h2>
      {items.length ? (
        <ul>
          {items.map((item, i) => (
            <WikiEntry key={`${item.title}-${i}`} item={item} />
          ))}
        </ul>
      ) : (
        <p className="fa-empty-text">No data</p>
      )}
    </section>
  );
}

/** The wiki page. */
export function WikiPage() {
  usePageTitle('WAM Wiki');
  const [wiki, setWiki] = useState<WikiData | null>(null);
  // why the wiki could not be loaded (shown once, here; true: no reason given)
  const [failed, setFailed] = useState<string | boolean>(false);
  const load = useCallback(() => {
    setFailed(false);
    fetchWiki().then(setWiki, (err: unknown) => setFailed(err instanceof ApiError && err.message ? err.message : true));
  }, []);
  useEffect(load, [load]);
  return (
    <section className="fa-page fa-aud" aria-labelledby="fa-wiki-title">
      <h1 id="fa-wiki-title">WAM Wiki</h1>
      <TabView>
        <TabPanel header="Wiki">
          {failed && (
            <div className="fa-error-banner" role="alert">
              The wiki could not be loaded{typeof failed === 'string' ? `: ${failed}` : ''}.{' '}
              <button type="button" className="fa-linkbutton" onClick={load}>
                Try again
              </button>
            </div>
          )}
          {!failed && !wiki && (
            <p className="fa-muted" role="status">
              Loading wiki...
            </p>
          )}
          {wiki && (
            <div className="fa-wiki-sections">
              {wiki.sections.map((s) => (
                <WikiSection key={s.title} title={s.title} items={s.items} />
              ))}
              <WikiSection title="Data sandbox" items={wiki.dataSandbox} />
              <WikiSection title="Sample outputs" items={wiki.sampleOutputs} />
            </div>
          )}
        </TabPanel>
      </TabView>
    </section>
  );
}

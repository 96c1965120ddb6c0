/** The honest placeholder of a page that is not built yet: its title and a one-line notice. */
import { usePageTitle } from './use-page-title';

export function EmptyPage({ title, showHeading = true }: { title: string; showHeading?: boolean }) {
  usePageTitle(title);
  return (
    <section className="fa-empty-page" aria-labelledby="fa-empty-title">
      {showHeading ? (
        <h1 id="fa-empty-title">{title}</h1>
      ) : (
        <h2 id="fa-empty-title" className="fa-sr-only">
          {title}
        </h2>
      )}
      <p className="fa-empty-text">This page is not available yet.</p>
    </section>
  );
}

/** An empty tab panel body (used inside tab strips). */
export function EmptyPanel({ title }: { title: string }) {
  return (
    <div className="fa-empty-panel" role="region" aria-label={title}>
      <p className="fa-empty-text">This page is not available yet.</p>
    </div>
  );
}

/** Auditor home: a welcome and the 'What's New' list of releases (newest first, from CHANGELOG.md). */
import { useSnapshot } from 'valtio';
import { roleMayUse } from '../../../../rules/access';
import { usePageTitle } from '../../components/use-page-title';
import { session } from '../../state/session';
import { codeSpans, releaseDate, type Release } from './whats-new';
import { RELEASES } from './whats-new.data';

/** A changelog line with its `code` spans. */
function ChangeText({ text }: { text: string }) {
  return <>{codeSpans(text).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}</>;
}

/** One release of the 'What's New' list. */
export function ReleaseNotes({ release }: { release: Release }) {
  const id = `fa-release-${release.version.replace(/\W/g, '-')}`;
  return (
    <article className="fa-release" aria-labelledby={id} data-testid="release">
      <h3 id={id}>
        Version {release.version}
        {release.date && <span className="fa-muted"> - {releaseDate(release.date)}</span>}
      </h3>
      {release.groups.map((g) => (
        <section key={g.title}>
          <h4>{g.title}</h4>
          <ul>
            {g.items.map((item, i) => (
              <li key={i}>
                <ChangeText text={item} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}

/** The auditor home page (route '/'). */
export function AuditorHomePage() {
  usePageTitle('Home');
  const { user } = useSnapshot(session);
  return (
    <section className="fa-page fa-aud" aria-labelledby="fa-home-title">
      <h1 id="fa-home-title">Welcome{user?.firstName ? `, ${user.firstName}` : ''}</h1>
      <p>
        Fund Audit tracks the fund requests received from administrators (TPAs) and clients: data due dates, the input files received, work papers and the
        status of each fund.{' '}
        {roleMayUse('auditor', user?.role)
          ? 'Start from the Data Platform to follow your funds, upload new fund requests in bulk and download their outputs.'
          : 'Your access covers this page, the WAM Wiki, your scorecards and Open chases, where you answer what is asked of you; your audit team shares fund requests and work papers with you.'}
      </p>
      <h2 id="fa-whats-new">What's New</h2>
      <div aria-labelledby="fa-whats-new" data-testid="whats-new">
        {RELEASES.length === 0 ? <p className="fa-empty-text">No releases yet.</p> : RELEASES.map((r) => <ReleaseNotes key={r.version} release={r} />)}
      </div>
    </section>
  );
}

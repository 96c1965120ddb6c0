/** Auditor home: a welcome. The 'What's New' release list is not available yet. */
import { useSnapshot } from 'valtio';
import { usePageTitle } from '../../components/use-page-title';
import { session } from '../../state/session';

export function AuditorHomePage() {
  usePageTitle('Home');
  const { user } = useSnapshot(session);
  return (
    <section className="fa-page">
      <h1>Welcome{user?.firstName ? `, ${user.firstName}` : ''}</h1>
      <p>Fund Audit tracks the fund requests received from administrators and clients, their input files and work papers.</p>
      <h2>What's New</h2>
      <p className="fa-empty-text">This page is not available yet.</p>
    </section>
  );
}

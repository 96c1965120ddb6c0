/**
 * Input files (/file-list): three tabs, Unidentified, Identified without match and MOVEit files.
 * Issue files can be assigned to a user, given an action and removed; unidentified files show
 * their per-sheet errors.
 */
import { useEffect, useMemo, useState } from 'react';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { TabPanel, TabView } from 'primereact/tabview';
import { useSnapshot } from 'valtio';
import { usePageTitle } from '../../components/use-page-title';
import { loadNrd, nrdStore, optionsOf } from '../../state/nrd';
import { IssueFilesPanel } from './files/issue-files-panel';
import { SweptPanel } from './files/swept-panel';
import './delivery.css';

/** Tab labels of Input files. */
export const FILE_LIST_TABS = ['Unidentified', 'Identified without match', 'MOVEit files'] as const;

/** The Input files page. */
export function FileListPage() {
  usePageTitle('Input Files');
  const { nrd } = useSnapshot(nrdStore);
  const [tab, setTab] = useState(0);
  const users = useMemo(() => optionsOf(nrd?.users), [nrd]);

  useEffect(() => {
    // users may have been added since the last visit
    void loadNrd(true);
  }, []);

  return (
    <section className="fa-page fa-file-page" aria-labelledby="fa-file-list-title">
      <div className="fa-page-head">
        <h1 id="fa-file-list-title">Input Files</h1>
      </div>
      <TabView activeIndex={tab} onTabChange={(e) => setTab(e.index)} renderActiveOnly>
        <TabPanel header={FILE_LIST_TABS[0]}>
          <IssueFilesPanel kind="unidentified" users={users} />
        </TabPanel>
        <TabPanel header={FILE_LIST_TABS[1]}>
          <IssueFilesPanel kind="unmatched" users={users} />
        </TabPanel>
        <TabPanel header={FILE_LIST_TABS[2]}>
          <SweptPanel />
        </TabPanel>
      </TabView>
      <ConfirmDialog />
    </section>
  );
}

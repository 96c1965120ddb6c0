/** The chased user's pages (one lazily loaded chunk): a Client or TPA user's open chases, where the chase mails link to. */
export { MyChasesPage } from './my-chases-page';

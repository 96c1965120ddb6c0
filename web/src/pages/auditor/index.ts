/** Auditor area pages (one lazily loaded chunk; chart.js is a further lazy chunk of Status Reporting). */
import { ensureAuditorStyles } from '../../components/auditor/auditor-styles';

ensureAuditorStyles();

export { AuditorHomePage } from './home-page';
export { DataPlatformPage } from './data-platform-page';
export { ToolsPage } from './tools-page';
export { WikiPage } from './wiki-page';

/** Auditor area pages (one lazily loaded chunk). */
export { AuditorHomePage } from './home-page';
export { DataPlatformPage } from './data-platform-page';
export { ToolsPage } from './tools-page';
export { WikiPage } from './wiki-page';

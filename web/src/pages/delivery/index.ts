/** Delivery area pages (one lazily loaded chunk). */
export { DashboardPage } from './dashboard-page';
export { FundDetailsPage } from './fund-details-page';
export { BulkUploadPage } from './bulk-upload-page';
export { DevToolsPage } from './dev-tools-page';
export { KeyGeneratorPage } from './key-generator-page';
export { FileListPage } from './file-list-page';
export { TestRunnerPage } from './test-runner-page';
export { ImportPage } from './import-page';
export { ExportPage } from './export-page';
export { PbiInputsPage } from './pbi-inputs-page';
export { MappingsPage } from './mappings-page';
export { ContactsPage } from './contacts-page';

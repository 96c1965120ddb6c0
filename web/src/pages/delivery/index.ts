/** Delivery area pages but the Dashboard (one lazily loaded chunk; the Dashboard has its own). */
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

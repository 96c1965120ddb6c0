/** Every API route definition, in mounting order. */
import type { RouteDef } from '../route.js';
import { adjustmentRoutes } from './adjustments.js';
import { auditLogRoutes } from './audit-log.js';
import { auditorRoutes } from './auditor.js';
import { authRoutes } from './auth.js';
import { bulkUploadRoutes } from './bulk-upload.js';
import { chasingRoutes } from './chasing.js';
import { demoWikiRoutes } from './demo-wiki.js';
import { devLogRoutes } from './dev-logs.js';
import { devToolsLocalRoutes } from './dev-tools-local.js';
import { devToolsRoutes } from './dev-tools.js';
import { downloadRoutes } from './downloads.js';
import { exportRoutes } from './exports.js';
import { fileRoutes } from './files.js';
import { fundRoutes } from './fund.js';
import { fundsRoutes } from './funds.js';
import { importRoutes } from './imports.js';
import { mappingRoutes } from './mappings.js';
import { openApiRoutes } from './openapi-doc.js';
import { pbiInputRoutes } from './pbi-inputs.js';
import { processRoutes } from './processes.js';
import { referenceFxRoutes } from './reference-fx.js';
import { scorecardRoutes } from './scorecards.js';
import { sdmUploadRoutes } from './sdm-upload.js';
import { ssoRoutes } from './sso.js';
import { systemRoutes } from './system.js';
import { testRunnerRoutes } from './test-runner.js';
import { tpaRoutes } from './tpa.js';

/** Every route with its literal method, path and schemas: the API contract (server/http/contract.ts) is read off its type. */
export const routeTable = [
  ...systemRoutes,
  ...openApiRoutes,
  ...authRoutes,
  ...ssoRoutes,
  ...devToolsRoutes,
  ...devToolsLocalRoutes,
  ...devLogRoutes,
  ...referenceFxRoutes,
  ...auditLogRoutes,
  ...downloadRoutes,
  ...exportRoutes,
  ...bulkUploadRoutes,
  ...fundRoutes,
  ...adjustmentRoutes,
  ...fundsRoutes,
  ...auditorRoutes,
  ...importRoutes,
  ...mappingRoutes,
  ...sdmUploadRoutes,
  ...tpaRoutes,
  ...fileRoutes,
  ...processRoutes,
  ...demoWikiRoutes,
  ...testRunnerRoutes,
  ...pbiInputRoutes,
  ...chasingRoutes,
  ...scorecardRoutes,
];

/** Every API route definition, in mounting order. */
export const allRoutes: RouteDef[] = routeTable as RouteDef[];

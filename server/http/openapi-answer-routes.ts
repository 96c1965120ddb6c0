/**
 * Test support of the response schemas: the routes whose real answers
 * `openapi-answers-uploads.test.ts` checks against their declared response schema (uploads, log
 * files and the developer tools of a local environment, which need files or a throwaway data
 * directory), as `'<METHOD> <path below the API base>'`. `openapi-answers.test.ts` checks every
 * other route that declares a response.
 */
export const UPLOAD_AND_LOCAL_ROUTES = [
  'POST /import/files',
  'POST /funds/upload',
  'POST /funds',
  'POST /fund-request/bulk',
  'POST /sdm-upload/validate-mappings',
  'POST /sdm-upload/create',
  'POST /sdm-upload/add-file',
  'POST /sdm-upload/process',
  'POST /sdm-upload/info',
  'POST /reference/fx-rates',
  'POST /logs/list',
  'POST /logs/last-lines',
  'POST /dev-tools/services',
  'GET /key/sweeper',
  'GET /key/canvas',
  'GET /key/worker',
  'GET /key/test-runner',
  'GET /dev-tools/user/key/system',
  'GET /dev-tools/user/key/:userId',
  'GET /dev-tools/user/key/:userId/:expiry',
  'POST /dev-tools/db/populate',
  'POST /dev-tools/db/populate/administrators',
  'POST /dev-tools/db/populate/force-master-mappings',
  'POST /dev-tools/db/clear',
  'POST /dev-tools/db/reset',
  'POST /dev-tools/tables/drop',
] as const;

/** Whether a route's answers are checked by `openapi-answers-uploads.test.ts`. */
export const isUploadOrLocalRoute = (r: { method: string; path: string }) => (UPLOAD_AND_LOCAL_ROUTES as readonly string[]).includes(`${r.method} ${r.path}`);

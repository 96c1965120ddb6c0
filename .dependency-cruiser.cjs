/**
 * The import layering of Fund Audit (docs/architecture.md, "Layers" and "Floors of the server"),
 * checked in `npm test`:
 *   web/, cli/  ->  server/http  ->  server/threads  ->  server/jobs  ->  server/services
 *     ->  server/queue  ->  server/db, config, log  ->  pipeline/  ->  rules/
 * Nothing points back up, and no files import each other in a loop. The browser imports only
 * types from the server.
 */
/**
 * One forbidden import, always an error: files matching `from` must not import what matches `to`.
 * @param {string} name @param {string} comment @param {object} from @param {object} to
 */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** The files of `path` that ship: its test files (`*.test.ts`) are left out. @param {string} path */
const shipped = (path) => ({ path, pathNot: '\\.test\\.ts$' });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'pipeline-stays-pure',
      'pipeline/ (engine, readers, stages, checks, work papers) never imports the server, the CLI or the UI',
      { path: '^pipeline/' },
      { path: '^(server|cli|web)/' },
    ),
    forbid('server-below-cli-and-web', 'the server never imports the CLI or the UI', { path: '^server/' }, { path: '^(cli|web)/' }),
    forbid('services-below-http', 'services and jobs never import the HTTP layer', { path: '^server/(services|jobs|db)/' }, { path: '^server/http/' }),
    forbid(
      'domain-without-frameworks',
      'services, jobs and the pipeline never import h3, crossws, commander, ink or react',
      { path: '^(server/(services|jobs|db)|pipeline)/' },
      { path: 'node_modules/(h3|crossws|commander|ink|react|react-dom)/' },
    ),
    forbid(
      'browser-imports-only-types-from-the-server',
      'the web bundle must not pull server or pipeline code in; type-only imports are fine',
      { path: '^web/src/' },
      { path: '^(server|pipeline|cli)/', dependencyTypesNot: ['type-only'] },
    ),
    forbid(
      'client-imports-only-contract-types',
      'client/ (the typed API client of the browser and the CLI) runs in both: it imports the API contract as types only, and nothing from web/ or cli/',
      shipped('^client/'),
      { path: '^(server|pipeline|cli|web)/', dependencyTypesNot: ['type-only'] },
    ),
    forbid(
      'rules-import-only-rules',
      'rules/ (statuses, action rules, messages) is shared by server, browser and CLI: it imports no framework and nothing from server/, pipeline/, web/ or cli/',
      shipped('^rules/'),
      { pathNot: '^rules/' },
    ),
    forbid(
      'no-circles',
      'files of the server, the pipeline and rules/ never import each other in a loop: each stands above what it imports',
      { path: '^(server|pipeline|rules)/' },
      { circular: true },
    ),
    forbid(
      'queue-below-services',
      'the queue floor (server/queue/: queue, enqueue, claims, processes, nodes, relay) never imports the services, jobs, threads or HTTP',
      shipped('^server/queue/'),
      { path: '^server/(services|jobs|threads|http)/' },
    ),
    forbid(
      'services-below-jobs',
      'services never import the jobs floor or the off-thread entry points (nor HTTP: services-below-http): a service starts a job through the queue (enqueue)',
      shipped('^server/services/'),
      { path: '^server/(jobs|threads)/' },
    ),
    forbid(
      'jobs-below-threads',
      'the jobs floor (stages, job threads, the test runner and export jobs) never imports the request pools (nor HTTP: services-below-http)',
      shipped('^server/jobs/'),
      { path: '^server/threads/' },
    ),
    forbid('threads-below-http', 'the off-thread entry points and the request pools never import HTTP', shipped('^server/threads/'), { path: '^server/http/' }),
    forbid(
      'query-and-cache-below-the-service-areas',
      'the listing query helpers (services/query: filters, sorting, input parsing) and the versioned cache (services/cache) import no other service area: every area that lists or caches stands above them',
      shipped('^server/services/(query|cache)/'),
      { path: '^server/services/', pathNot: '^server/services/(query|cache)/' },
    ),
    forbid(
      'files-and-reference-data-below-funds',
      "a fund's files (services/files) and the reference data are shown by the funds area (details, listing), never the other way round",
      shipped('^server/services/(files|reference-data)/'),
      { path: '^server/services/funds/' },
    ),
    forbid(
      'floors-below-the-top',
      'nothing below the top imports the process entry points (runtime.ts, bootstrap.ts, sea.ts) or the test support (server/testing/)',
      shipped('^server/(queue|services|jobs|threads|db|lib)/'),
      { path: '^server/((runtime|bootstrap|sea)\\.ts$|testing/)' },
    ),
    forbid(
      'test-support-only-in-tests',
      'the test support (server/testing/, cli/testing/, pipeline/testing/: test contexts, factories, a test identity provider and SMTP server) is imported by tests, benchmarks and other test support only, never by what ships',
      { path: '^(server|cli|pipeline|rules|client|web/src)/', pathNot: ['\\.test\\.tsx?$', '^(server|cli|pipeline)/testing/'] },
      { path: '^(server|cli|pipeline)/testing/' },
    ),
    forbid(
      'web-api-is-a-leaf',
      'web/src/api (the browser API client) imports nothing from state, components or pages: the state hands it the token, redirects and notices at start (registerApiHooks)',
      { path: '^web/src/api/' },
      { path: '^web/src/', pathNot: '^web/src/api/' },
    ),
    forbid(
      'web-delivery-and-auditor-areas-apart',
      'the delivery pages and the auditor pages share nothing directly: what both use lives in web/src/components',
      { path: '^web/src/pages/(delivery|auditor)/' },
      { path: '^web/src/pages/(delivery|auditor)/', pathNot: '^web/src/pages/$1/' },
    ),
    forbid('no-unresolvable-imports', 'a typo in a path, or a package that is not installed', {}, { couldNotResolve: true }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

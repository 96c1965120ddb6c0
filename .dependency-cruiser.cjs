/**
 * The import layering of Fund Audit (docs/architecture.md, "Layers" and "Floors of the server"),
 * checked in `npm test`:
 *   web/, cli/  ->  server/http  ->  server/threads  ->  server/jobs  ->  server/services
 *     ->  server/queue  ->  server/db, config, log  ->  pipeline/  ->  rules/
 * Nothing points back up, and no files import each other in a loop. The browser imports only
 * types from the server.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'pipeline-stays-pure',
      comment: 'pipeline/ (engine, readers, stages, checks, work papers) never imports the server, the CLI or the UI',
      severity: 'error',
      from: { path: '^pipeline/' },
      to: { path: '^(server|cli|web)/' },
    },
    {
      name: 'server-below-cli-and-web',
      comment: 'the server never imports the CLI or the UI',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(cli|web)/' },
    },
    {
      name: 'services-below-http',
      comment: 'services and jobs never import the HTTP layer',
      severity: 'error',
      from: { path: '^server/(services|jobs|db)/' },
      to: { path: '^server/http/' },
    },
    {
      name: 'domain-without-frameworks',
      comment: 'services, jobs and the pipeline never import h3, crossws, commander, ink or react',
      severity: 'error',
      from: { path: '^(server/(services|jobs|db)|pipeline)/' },
      to: { path: 'node_modules/(h3|crossws|commander|ink|react|react-dom)/' },
    },
    {
      name: 'browser-imports-only-types-from-the-server',
      comment: 'the web bundle must not pull server or pipeline code in; type-only imports are fine',
      severity: 'error',
      from: { path: '^web/src/' },
      to: { path: '^(server|pipeline|cli)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'client-imports-only-contract-types',
      comment:
        'client/ (the typed API client of the browser and the CLI) runs in both: it imports the API contract as types only, and nothing from web/ or cli/',
      severity: 'error',
      from: { path: '^client/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(server|pipeline|cli|web)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'rules-import-only-rules',
      comment:
        'rules/ (statuses, action rules, messages) is shared by server, browser and CLI: it imports no framework and nothing from server/, pipeline/, web/ or cli/',
      severity: 'error',
      from: { path: '^rules/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: '^rules/' },
    },
    {
      name: 'no-circles',
      comment: 'files of the server, the pipeline and rules/ never import each other in a loop: each stands above what it imports',
      severity: 'error',
      from: { path: '^(server|pipeline|rules)/' },
      to: { circular: true },
    },
    {
      name: 'queue-below-services',
      comment: 'the queue floor (server/queue/: queue, enqueue, claims, processes, nodes, relay) never imports the services, jobs, threads or HTTP',
      severity: 'error',
      from: { path: '^server/queue/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(services|jobs|threads|http)/' },
    },
    {
      name: 'services-below-jobs',
      comment:
        'services never import the jobs floor or the off-thread entry points (nor HTTP: services-below-http): a service starts a job through the queue (enqueue)',
      severity: 'error',
      from: { path: '^server/services/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(jobs|threads)/' },
    },
    {
      name: 'jobs-below-threads',
      comment: 'the jobs floor (stages, job threads, the test runner and export jobs) never imports the request pools (nor HTTP: services-below-http)',
      severity: 'error',
      from: { path: '^server/jobs/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/threads/' },
    },
    {
      name: 'threads-below-http',
      comment: 'the off-thread entry points and the request pools never import HTTP',
      severity: 'error',
      from: { path: '^server/threads/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/http/' },
    },
    {
      name: 'query-and-cache-below-the-service-areas',
      comment:
        'the listing query helpers (services/query: filters, sorting, input parsing) and the versioned cache (services/cache) import no other service area: every area that lists or caches stands above them',
      severity: 'error',
      from: { path: '^server/services/(query|cache)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/services/', pathNot: '^server/services/(query|cache)/' },
    },
    {
      name: 'files-and-reference-data-below-funds',
      comment: "a fund's files (services/files) and the reference data are shown by the funds area (details, listing), never the other way round",
      severity: 'error',
      from: { path: '^server/services/(files|reference-data)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/services/funds/' },
    },
    {
      name: 'floors-below-the-top',
      comment: 'nothing below the top imports the process entry points (runtime.ts, bootstrap.ts, sea.ts) or the test support (server/testing/)',
      severity: 'error',
      from: { path: '^server/(queue|services|jobs|threads|db|lib)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/((runtime|bootstrap|sea)\\.ts$|testing/)' },
    },
    {
      name: 'test-support-only-in-tests',
      comment:
        'the test support (server/testing/, cli/testing/, pipeline/testing/: test contexts, factories, a test identity provider and SMTP server) is imported by tests, benchmarks and other test support only, never by what ships',
      severity: 'error',
      from: { path: '^(server|cli|pipeline|rules|client|web/src)/', pathNot: ['\\.test\\.tsx?$', '^(server|cli|pipeline)/testing/'] },
      to: { path: '^(server|cli|pipeline)/testing/' },
    },
    {
      name: 'web-api-is-a-leaf',
      comment:
        'web/src/api (the browser API client) imports nothing from state, components or pages: the state hands it the token, redirects and notices at start (registerApiHooks)',
      severity: 'error',
      from: { path: '^web/src/api/' },
      to: { path: '^web/src/', pathNot: '^web/src/api/' },
    },
    {
      name: 'web-delivery-and-auditor-areas-apart',
      comment: 'the delivery pages and the auditor pages share nothing directly: what both use lives in web/src/components',
      severity: 'error',
      from: { path: '^web/src/pages/(delivery|auditor)/' },
      to: { path: '^web/src/pages/(delivery|auditor)/', pathNot: '^web/src/pages/$1/' },
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'a typo in a path, or a package that is not installed',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
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

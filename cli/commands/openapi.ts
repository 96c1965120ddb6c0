/** `fund-audit openapi`: print the OpenAPI document of the API. */
import type { Command } from 'commander';
import { buildOpenApi } from '../../server/http/openapi.js';
import { allRoutes } from '../../server/http/routes/index.js';

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the HTTP API (JSON)')
    .action(() => {
      process.stdout.write(JSON.stringify(buildOpenApi(allRoutes), null, 2) + '\n');
    });
}

#!/usr/bin/env node
// Entry point of the `fund-audit` command (the server is its `serve` command).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/cli.mjs', import.meta.url);
if (!existsSync(fileURLToPath(bundle))) {
  process.stderr.write('Fund Audit is not built yet: run `npm run build` first.\n');
  process.exit(1);
}
const { main } = await import(bundle.href);
const code = await main(process.argv);
if (code) process.exitCode = code;

// Runs every benchmark in bench/ one after the other (`npm run bench`); not part of `npm test`.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

for (const file of readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  process.stdout.write(`\n## ${file}\n`);
  execFileSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allCommands, commandPath } from './examples.js';
import { buildProgram } from './main.js';
import { runCli, runCliAsync } from './testing/cli.js';

/** Every command path of the CLI ('funds list', ...), from the program itself. */
const PATHS = allCommands(buildProgram())
  .map(commandPath)
  .filter((p) => p);

/** Sources the bash script and completes `line` (the cursor at its end); returns the candidates. */
function complete(script: string, line: string): string[] {
  const words = line.split(' ');
  const cmd = `source ${script}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_fund_audit
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('fund-audit completion and help', { timeout: 90_000 }, () => {
  it('prints a bash completion script that completes commands and options', () => {
    const r = runCli(['completion', 'bash']);
    expect(r.status).toBe(0);
    const script = join(mkdtempSync(join(tmpdir(), 'fa-completion-')), 'fund-audit.bash');
    writeFileSync(script, r.stdout);

    const registered = spawnSync('bash', ['-c', `source ${script}; complete -p fund-audit`], { encoding: 'utf8' });
    expect(registered.stdout.trim()).toBe('complete -o default -F _fund_audit fund-audit');

    expect(complete(script, 'fund-audit fu')).toEqual(['funds']);
    expect(complete(script, 'fund-audit re')).toEqual(['restore', 'reference']);
    expect(complete(script, 'fund-audit funds u')).toEqual(['undo-delete']);
    expect(complete(script, 'fund-audit -d /srv/fa mappings h')).toEqual(['history']);
    expect(complete(script, 'fund-audit --json funds list --s')).toEqual(['--status', '--search', '--server']);
    expect(complete(script, 'fund-audit reference fx ')).toEqual([
      'import',
      'list',
      'remove',
      '-d',
      '--data-dir',
      '--database-url',
      '--blob-dir',
      '--server',
      '--token',
      '--json',
      '--help',
    ]);
    expect(complete(script, 'fund-audit backup --')).toEqual(['--to', '--data-dir', '--database-url', '--blob-dir', '--server', '--token', '--json', '--help']);
    // every command of the program is offered under its parent
    for (const path of PATHS) {
      const parent = path.split(' ').slice(0, -1);
      const name = path.split(' ').at(-1)!;
      expect(complete(script, ['fund-audit', ...parent, name].join(' ')), path).toContain(name);
    }
  });

  it('prints a zsh completion script with every command, and refuses other shells', () => {
    const r = runCli(['completion', 'zsh']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('#compdef fund-audit');
    expect(r.stdout).toContain('compdef _fund_audit fund-audit');
    for (const path of PATHS) expect(r.stdout, path).toContain(`('${path}') cmds=(`);
    expect(r.stdout).toContain(`'--status:only these statuses`);
    const fish = runCli(['completion', 'fish']);
    expect(fish.status).toBe(3);
    expect(fish.stderr).toMatch(/Unknown shell 'fish'; use bash or zsh/);
  });

  it('shows examples in the help of every command', async () => {
    const paths = ['', ...PATHS];
    for (let i = 0; i < paths.length; i += 4) {
      const batch = paths.slice(i, i + 4);
      const results = await Promise.all(batch.map((path) => runCliAsync([...(path ? path.split(' ') : []), '--help'])));
      results.forEach((r, j) => {
        expect(r.status, batch[j]).toBe(0);
        expect(r.stdout, batch[j]).toMatch(new RegExp(`\\nExamples:\\n  \\$ ${batch[j] ? '(\\S+=\\S+ )*' : ''}fund-audit `));
      });
    }
  }, 180_000);
});

/**
 * Examples shown at the end of each command's `--help`, keyed by the command's path
 * ('funds list'). `addExamples` attaches them to the program's commands; a command without an
 * entry here gets none (the CLI test checks every command has some).
 */
import type { Command } from 'commander';

const PG = '--database-url postgres://fund_audit:secret@db.example.com/fund_audit --blob-dir /mnt/shared/fund-audit-blobs';
const REMOTE = 'FUND_AUDIT_SERVER=https://audit.example.com FUND_AUDIT_TOKEN=KEY';

/** Command path -> example command lines (each one a complete command). */
export const EXAMPLES: Record<string, string[]> = {
  '': [
    'fund-audit serve --port 8080',
    'fund-audit -d /srv/fund-audit funds list',
    `fund-audit ${PG} funds list`,
    'fund-audit --server https://audit.example.com --token KEY funds list --json',
  ],
  serve: [
    'fund-audit -d /srv/fund-audit serve --port 8080',
    'fund-audit serve --host 0.0.0.0 --public-url https://audit.example.com --no-demo-data',
    `fund-audit -d /srv/fund-audit ${PG} serve --host 0.0.0.0`,
  ],
  init: ['fund-audit -d /srv/fund-audit init --no-demo-data', 'fund-audit -d /srv/fund-audit init --json', `fund-audit ${PG} init --no-demo-data`],
  users: ['fund-audit users list', 'fund-audit users add --email ada@example.com --name "Ada Lovelace" --role Auditor'],
  'users add': ['fund-audit users add --email ada@example.com --name "Ada Lovelace" --role Auditor'],
  'users list': ['fund-audit users list', 'fund-audit --json users list'],
  'users client': ['fund-audit users client cfo@orion.example.com "Orion Capital"', 'fund-audit users client cfo@orion.example.com'],
  scorecard: [
    'fund-audit scorecard',
    'fund-audit scorecard --tpa meridian_fund_services --from 2025-01 --to 2025-12',
    'fund-audit scorecard --client --csv > clients.csv',
    'fund-audit scorecard --tpa "Meridian Fund Services" --funds late --month 2025-03',
    `${REMOTE} fund-audit scorecard --client "Orion Capital" --xlsx orion.xlsx`,
  ],
  'users link': ['fund-audit users link ada@example.com --base-url https://audit.example.com'],
  'users key': ['fund-audit users key worker', `export FUND_AUDIT_TOKEN=$(fund-audit users key test-runner | head -1)`],
  openapi: ['fund-audit openapi > openapi.json'],
  'bulk-upload': ['fund-audit bulk-upload fund-requests.csv --dry-run', 'fund-audit bulk-upload fund-requests.csv --request-date 2024-01-31 --overwrite'],
  import: [
    'fund-audit import --tpa meridian_fund_services MFS_HOLDINGS_S000013795_20230331.csv MFS_TB_S000013795_20230331.csv',
    `${REMOTE} fund-audit import --tpa meridian_fund_services --no-wait *.csv`,
  ],
  mappings: ['fund-audit mappings list --tpa meridian_fund_services', 'fund-audit mappings history 3'],
  'mappings list': ['fund-audit mappings list', 'fund-audit mappings list --tpa meridian_fund_services --type account_mapping --json'],
  'mappings upload': [
    'fund-audit mappings upload account_mapping.csv --tpa meridian_fund_services --type account_mapping --reason "new cash accounts"',
    'fund-audit mappings upload accounts.csv --tpa meridian_fund_services --type account_mapping --mode custom --name acme_accounts --client "Acme Capital" --reason "client chart"',
  ],
  'mappings download': ['fund-audit mappings download 3 -o account_mapping.csv', 'fund-audit mappings download 3 --at-version 1'],
  'mappings history': ['fund-audit mappings history 3', 'fund-audit --json mappings history 3'],
  'mappings diff': ['fund-audit mappings diff 3 1 2'],
  tpa: ['fund-audit tpa create meridian_fund_services --name "Meridian Fund Services"', 'fund-audit tpa upload-mappings meridian_fund_services ./mappings'],
  'tpa create': [
    'fund-audit tpa create meridian_fund_services --name "Meridian Fund Services" --region AMER',
    'fund-audit tpa create meridian_fund_services --name "Meridian Fund Services" --mappings ./mappings --reason onboarding',
  ],
  'tpa upload-mappings': [
    'fund-audit tpa upload-mappings meridian_fund_services ./mappings --reason "new cash accounts"',
    `${REMOTE} fund-audit tpa upload-mappings meridian_fund_services ./mappings`,
  ],
  funds: ['fund-audit funds list --status Pending', 'fund-audit funds approve 12 13'],
  'funds list': [
    'fund-audit funds list --status Pending Paused --limit 20',
    'fund-audit funds list --search S000013795 --json',
    `${REMOTE} fund-audit funds list`,
  ],
  'funds approve': ['fund-audit funds approve 12 13'],
  'funds close': ['fund-audit funds close 12'],
  'funds issue': ['fund-audit funds issue 12'],
  'funds pause': ['fund-audit funds pause 12'],
  'funds decline': ['fund-audit funds decline 14'],
  'funds remove': ['fund-audit funds remove 14', 'fund-audit funds undo-delete 14'],
  'funds undo-delete': ['fund-audit funds undo-delete 14'],
  'funds reset': ['fund-audit funds reset 12'],
  'funds rerun': ['fund-audit funds rerun 12 13'],
  adjustments: [
    'fund-audit adjustments list 12',
    'fund-audit adjustments add 12 --type main --description "Audit fee accrual" --line EXPENSE_OTHER=25000 --line 20900=-25000',
  ],
  'adjustments list': ['fund-audit adjustments list 12', 'fund-audit --json adjustments list 12'],
  'adjustments add': [
    'fund-audit adjustments add 12 --type main --description "Audit fee accrual" --line EXPENSE_OTHER=25000 --line 20900=-25000',
    'fund-audit adjustments add 12 --type bond --booked --description "Vendor price" --line 11000=-1000000@US3138W7WP51 --line 11000=-1000000 --line UNREALIZED_GL=1000000',
    'fund-audit adjustments add 12 --type hmrc --description "Reportable income" --line INCOME_OTHER=-1250.50',
  ],
  'adjustments delete': ['fund-audit adjustments delete 12 3'],
  'adjustments rerun': ['fund-audit adjustments rerun 12', 'fund-audit adjustments rerun 12 --apportionment'],
  export: [
    'fund-audit export --funds 12,13 --stages all -o audit.zip',
    'fund-audit export --funds 12 --stages visualization,calculations --reviewed-only -o papers.zip',
  ],
  test: ['fund-audit test list', 'fund-audit test run --admin meridian_fund_services'],
  'test list': ['fund-audit test list', 'fund-audit --json test list'],
  'test run': [
    'fund-audit test run --admin meridian_fund_services --tests 1,2',
    'fund-audit test run --admin meridian_fund_services,keystone_admin --reporter junit --output results.xml',
    `fund-audit ${PG} test run --admin meridian_fund_services --mappings production`,
  ],
  worker: ['fund-audit -d /srv/fund-audit worker -w 2', `fund-audit -d /srv/fund-audit ${PG} worker -w 4`],
  backup: ['fund-audit -d /srv/fund-audit backup --to /backups/fund-audit-2024-01-31.zip'],
  restore: [
    'fund-audit restore /backups/fund-audit-2024-01-31.zip --data-dir /srv/fund-audit-restored',
    'fund-audit restore backup.zip --data-dir /srv/fund-audit --force',
  ],
  migrate: [
    'fund-audit migrate --from /srv/fund-audit --to postgres://fund_audit:secret@db.example.com/fund_audit --blob-dir /mnt/shared/fund-audit-blobs',
    'fund-audit --json migrate --from /srv/fund-audit --to postgres://fund_audit@db.example.com/fund_audit --blob-dir /mnt/shared/fund-audit-blobs',
  ],
  audit: ['fund-audit audit list -n 20', 'fund-audit audit verify'],
  'audit list': ['fund-audit audit list -n 20', 'fund-audit --json audit list'],
  'audit verify': ['fund-audit audit verify'],
  'audit export': ['fund-audit audit export --to audit-trail.jsonl'],
  reference: ['fund-audit reference fx list', 'fund-audit reference fx import eurofxref-hist.csv'],
  'reference fx': ['fund-audit reference fx list', 'fund-audit reference fx import eurofxref-hist.csv'],
  'reference fx import': ['fund-audit reference fx import eurofxref-hist.csv'],
  'reference fx list': ['fund-audit reference fx list', 'fund-audit --json reference fx list'],
  contacts: ['fund-audit contacts list --tpa meridian_fund_services', 'fund-audit contacts add --tpa meridian_fund_services --email jane.doe@meridian.example'],
  'contacts list': ['fund-audit contacts list --tpa meridian_fund_services', 'fund-audit --json contacts list --client "Orion Capital"'],
  'contacts add': [
    'fund-audit contacts add --tpa meridian_fund_services --email jane.doe@meridian.example --name "Jane Doe"',
    'fund-audit contacts add --client "Orion Capital" --email ops@orion.example --role escalation --time-zone Europe/Luxembourg',
  ],
  'contacts update': ['fund-audit contacts update 4 --role escalation', 'fund-audit contacts update 4 --time-zone America/New_York'],
  'contacts remove': ['fund-audit contacts remove 4'],
  chase: ['fund-audit chase --dry-run --json', 'fund-audit chase', 'fund-audit chase --today 2024-02-05 --no-send'],
  'chase outbox': ['fund-audit chase outbox', 'fund-audit --json chase outbox --status failed -n 20'],
  'chase schedule': [
    'fund-audit chase schedule meridian_fund_services',
    'fund-audit chase schedule meridian_fund_services --offsets -5,0,5,10 --escalate-from 2',
    'fund-audit chase schedule meridian_fund_services --reset',
  ],
  completion: [
    'fund-audit completion bash > /etc/bash_completion.d/fund-audit',
    'source <(fund-audit completion bash)',
    'fund-audit completion zsh > "${fpath[1]}/_fund-audit"',
  ],
};

/** The space-separated path of a command below the program ('' for the program itself). */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command of the program, the program first, depth first. */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap((c) => allCommands(c))];
}

/** Adds an "Examples:" section after the help of every command listed in `EXAMPLES`. */
export function addExamples(program: Command): void {
  for (const cmd of allCommands(program)) {
    const lines = EXAMPLES[commandPath(cmd)];
    if (lines?.length) cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`);
  }
}

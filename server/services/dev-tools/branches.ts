/**
 * The configurations and testing "branches" of the developer tools (delivery spec "Developer
 * tools": dev info shows the configurations branch with its behind count and latest commit, and
 * the testing branch; section 7 `GET /dev-tools/configurations/current`, `POST .../update {branch}`,
 * `GET /dev-tools/testing/current`, `POST .../update {branch}`; section 5: branch updates show a
 * server validation error).
 *
 * A self-hosted install has no git checkouts to switch: the TPA configurations
 * (`fixtures/tpas`: file layouts and master mappings) and the regression suites
 * (`fixtures/test-suites`) ship with the installed version. So the branch is the installed
 * version (`installed-<version>`), it is never behind, and its "latest commit" is a digest of the
 * shipped files (it changes exactly when their content does). Updating that branch is a no-op
 * ("up to date"); any other branch is refused with a validation error that says how to change
 * them. Both calls are refused while `branchUpdateEnabled` (same branch) or `branchChangeEnabled`
 * (another branch) is off.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppContext } from '../../context.js';
import { ValidationError } from '../../errors.js';
import { appVersion, fixturesDir } from '../../paths.js';

/** The two kinds of branch. */
export const BRANCH_KINDS = { configurations: 'tpas', testing: 'test-suites' } as const;
export type BranchKind = keyof typeof BRANCH_KINDS;

/** What dev info shows of a branch. */
export interface BranchInfo {
  kind: BranchKind;
  branch: string;
  /** Commits the branch is behind its remote: always 0, nothing is fetched. */
  behind: number;
  latestCommit: { id: string; message: string; files: number };
  /** Where the shipped files are. */
  source: string;
  /** Whether a branch can be updated or changed on this server. */
  updateEnabled: boolean;
  changeEnabled: boolean;
}

/** Every file below a folder, relative paths sorted. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out;
}

const digests = new Map<string, { id: string; files: number }>();

/** A digest of the paths and contents of the shipped files (computed once per process). */
function digestOf(dir: string): { id: string; files: number } {
  const cached = digests.get(dir);
  if (cached) return cached;
  const hash = createHash('sha256');
  const files = filesBelow(dir);
  for (const f of files)
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(join(dir, f)))
      .update('\0');
  const value = { id: hash.digest('hex').slice(0, 12), files: files.length };
  digests.set(dir, value);
  return value;
}

/** The installed branch name. */
export const installedBranch = () => `installed-${appVersion()}`;

function assertKind(kind: string): BranchKind {
  if (!(kind in BRANCH_KINDS)) throw new ValidationError(`Unknown branch kind '${kind}'; use configurations or testing`);
  return kind as BranchKind;
}

/**
 * The current branch of configurations or testing.
 * @throws ValidationError for an unknown kind
 */
export function currentBranch(ctx: AppContext, kindName: string): BranchInfo {
  const kind = assertKind(kindName);
  const dir = join(fixturesDir(), BRANCH_KINDS[kind]);
  const digest = digestOf(dir);
  return {
    kind,
    branch: installedBranch(),
    behind: 0,
    latestCommit: {
      id: digest.id,
      message: `${kind === 'configurations' ? 'TPA configurations' : 'Regression suites'} shipped with Fund Audit ${appVersion()}`,
      files: digest.files,
    },
    source: `fixtures/${BRANCH_KINDS[kind]}`,
    updateEnabled: ctx.config.branchUpdateEnabled,
    changeEnabled: ctx.config.branchChangeEnabled,
  };
}

/**
 * Updates (same branch) or changes (another branch) configurations or testing.
 * @returns the current branch with a message when it is the installed one and updates are on
 * @throws ValidationError when the switch for it is off, or for any branch but the installed one
 */
export function updateBranch(ctx: AppContext, kindName: string, branch: string): { info: BranchInfo; message: string } {
  const info = currentBranch(ctx, kindName);
  const wanted = branch.trim();
  const label = info.kind === 'configurations' ? 'Configuration' : 'Testing';
  if (!wanted) throw new ValidationError(`${label} branch update failed`, ['Give the branch to update to']);
  if (wanted === info.branch) {
    if (!ctx.config.branchUpdateEnabled)
      throw new ValidationError(`${label} branch update failed`, ['Branch updates are disabled on this server (setting branchUpdateEnabled)']);
    return { info, message: `${label} branch ${info.branch} is up to date` };
  }
  if (!ctx.config.branchChangeEnabled)
    throw new ValidationError(`${label} branch update failed`, ['Branch changes are disabled on this server (setting branchChangeEnabled)']);
  throw new ValidationError(`${label} branch update failed`, [
    `There is no branch '${wanted}': this installation only has ${info.branch}`,
    `${label === 'Configuration' ? 'TPA configurations' : 'Regression suites'} ship with Fund Audit ${appVersion()}; install another version of Fund Audit to change them`,
  ]);
}

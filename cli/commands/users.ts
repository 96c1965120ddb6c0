/** `fund-audit users add|list|client|link|key`: manage users of the local data directory and service keys. */
import type { Command } from 'commander';
import { ROLES } from '../../server/db/schema/index.js';
import { sessionUser, signinLink } from '../../server/services/auth/session.js';
import { generateServiceKey, SERVICE_USERS } from '../../server/services/dev-tools/keys.js';
import { addUser, ensureAdmin, getUserByEmail, listUsers, setUserClient } from '../../server/services/users/users.js';
import { publicBaseUrl } from '../../server/public-url.js';
import { globals, openLocal } from '../global.js';
import { output } from '../output.js';
import { showTable } from '../ui/reporter.js';

export function registerUsers(program: Command): void {
  const users = program.command('users').description('Manage users and sign-in links');

  users
    .command('add')
    .description('Create a user')
    .requiredOption('--email <email>', 'e-mail address (unique)')
    .requiredOption('--name <name>', 'full name, e.g. "Ada Lovelace"')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .action(async (opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const user = sessionUser(await addUser(ctx, { email: opts.email, name: opts.name, role: opts.role }));
        output(user, !!g.json, () => process.stdout.write(`Created ${user.role} ${user.fullName} <${user.email}> (id ${user.id})\n`));
      } finally {
        ctx.close();
      }
    });

  users
    .command('list')
    .description('List users')
    .action(async (_opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const rows = (await listUsers(ctx)).map(sessionUser);
        if (g.json) output(rows, true, () => undefined);
        else
          await showTable(
            rows.map((u) => ({
              id: u.id,
              email: u.email,
              name: u.fullName,
              role: u.role,
              originalRole: u.originalRole,
              privacy: u.accepted_privacy_version ?? '',
            })),
          );
      } finally {
        ctx.close();
      }
    });

  users
    .command('client')
    .description('Link a Client user to the client whose fund requests they see (scorecards count those alone); without a client, unlink')
    .argument('<email>', 'the Client user e-mail address')
    .argument('[client]', 'the client, named as on the fund requests')
    .action(async (email: string, client: string | undefined, _opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const user = await setUserClient(ctx, null, email, client ?? null);
        output({ ...sessionUser(user), client: user.client }, !!g.json, () =>
          process.stdout.write(user.client ? `${user.email} sees the fund requests of ${user.client}\n` : `${user.email} is linked to no client\n`),
        );
      } finally {
        ctx.close();
      }
    });

  users
    .command('link')
    .description('Print a new one-time sign-in link for a user')
    .argument('<email>', 'the user e-mail address')
    .option('--base-url <url>', 'server base URL (default: publicUrl, else http://<host>:<port>, with this machine name for 0.0.0.0)')
    .action(async (email: string, opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const user = await getUserByEmail(ctx, email);
        const base = opts.baseUrl ?? publicBaseUrl(ctx.config).url;
        const link = await signinLink(ctx, user, base);
        output(link, !!g.json, () => process.stdout.write(`${link.url}\n(one-time link for ${user.email}, valid until ${link.expiresAt})\n`));
      } finally {
        ctx.close();
      }
    });

  users
    .command('key')
    .description("Print a new API key of a service user (the key generator's keys); the service's earlier keys stop working")
    .argument('<service>', Object.keys(SERVICE_USERS).join(', '))
    .action(async (service: string, _opts, cmd: Command) => {
      const g = globals(cmd);
      const ctx = await openLocal(g);
      try {
        const key = await generateServiceKey(ctx, (await ensureAdmin(ctx, ctx.config.adminEmail)).user, service);
        output(key, !!g.json, () =>
          process.stdout.write(
            `${key.token}\n(API key of ${key.email}, ${key.role}, valid until ${key.expiresAt}; ${key.revoked} earlier key${key.revoked === 1 ? '' : 's'} revoked)\n`,
          ),
        );
      } finally {
        ctx.close();
      }
    });
}

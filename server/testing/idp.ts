/**
 * Test support: a real OpenID Connect provider (the certified `oidc-provider` package) on this
 * machine, with test users whose groups a test can change between sign-ins. Its login page takes
 * the user's id as login and any password; consent is granted without asking (a first-party
 * application); RP-initiated logout asks "Yes, sign me out".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A user of the test provider. */
export interface IdpUser {
  email: string;
  name: string;
  groups: string[];
  /** The `email_verified` claim (default true). */
  emailVerified?: boolean;
}

export interface TestIdp {
  /** The issuer, e.g. http://localhost:41234 */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Users by login id; change a user's groups to change the claim at the next sign-in. */
  users: Map<string, IdpUser>;
  close(): Promise<void>;
}

/** A free TCP port on this machine. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((res) => server.close(() => res()));
  return port;
}

/**
 * Starts something on a port free a moment before (`freePort`). Another test's server may take
 * that port first: then `start` runs again on another one, up to five times.
 * @throws the last EADDRINUSE, or at once any other error of `start`
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw err;
    }
  }
}

/**
 * Starts the provider for one application.
 * @param appUrl the application's public URL: its redirect URI is `<appUrl>/api/sso/callback` and
 *   its logout return `<appUrl>/unauthorized`
 * @param users login id -> user
 */
export async function startTestIdp(appUrl: string, users: Record<string, IdpUser>): Promise<TestIdp> {
  return onFreePort((port) => startTestIdpOn(port, appUrl, users));
}

/** `startTestIdp` on a given port. @throws the listen error (EADDRINUSE when the port is taken) */
async function startTestIdpOn(port: number, appUrl: string, users: Record<string, IdpUser>): Promise<TestIdp> {
  const { default: Provider } = (await import('oidc-provider' as string)) as { default: any };
  const issuer = `http://localhost:${port}`;
  const clientId = 'fund-audit';
  const clientSecret = 'a-client-secret-of-the-test-provider';
  const known = new Map(Object.entries(users));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${appUrl}/api/sso/callback`],
        post_logout_redirect_uris: [`${appUrl}/unauthorized`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'], groups: ['groups'] },
    pkce: { required: () => true },
    cookies: { keys: ['test-idp-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => {
      const user = known.get(id);
      if (!user) return undefined;
      return {
        accountId: id,
        claims: () => {
          const [given, ...family] = user.name.split(' ');
          return {
            sub: id,
            email: user.email,
            email_verified: user.emailVerified ?? true,
            name: user.name,
            given_name: given,
            family_name: family.join(' '),
            groups: [...user.groups],
          };
        },
      };
    },
    // A first-party application: consent is given without a consent page.
    loadExistingGrant: async (ctx: any) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(port, res);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    users: known,
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}

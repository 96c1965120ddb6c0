/**
 * Test support for tests of running servers: JSON calls to the API and a socket client (ws) that
 * keeps every event it received.
 */
import WebSocket from 'ws';

/**
 * A call of a running server's API with an access token: JSON (`body`) or multipart (`form`),
 * POST when either is given unless `method` says otherwise. Returns the status and the body,
 * parsed when JSON.
 */
export async function call(base: string, path: string, opts: { token?: string; body?: unknown; form?: FormData; method?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers['x-access-token'] = opts.token;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path, base), {
    method: opts.method ?? (opts.body !== undefined || opts.form ? 'POST' : 'GET'),
    headers,
    body: opts.form ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body };
}

/**
 * Signs in with the one-time link a server prints at start (`http://.../redeemToken/#<token>`)
 * and returns the session's access token; throws when the server refuses the link.
 */
export async function signIn(base: string, link: string): Promise<string> {
  const redeemed = await call(base, '/api/sso/redeemToken', { body: { token: link.split('#')[1] } });
  if (redeemed.status !== 200) throw new Error(`the sign-in link was refused (${redeemed.status}): ${JSON.stringify(redeemed.body)}`);
  return redeemed.body.payload.token as string;
}

/** A socket on a server, with the events it received. */
export function socket(
  url: string,
  token: string,
): Promise<{ ws: WebSocket; messages: any[]; next: (event: string, match?: (data: any) => boolean, ms?: number) => Promise<any> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${token}`);
    const messages: any[] = [];
    const waiters: Array<() => void> = [];
    ws.on('message', (raw) => {
      messages.push(JSON.parse(String(raw)));
      for (const w of waiters.splice(0)) w();
    });
    const next = async (event: string, match: (data: any) => boolean = () => true, ms = 20_000) => {
      const end = Date.now() + ms;
      for (;;) {
        const seen = messages.find((m) => m.event === event && match(m.data));
        if (seen) return seen;
        if (Date.now() > end) throw new Error(`no ${event} event: ${JSON.stringify(messages)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    };
    ws.on('open', () => resolve({ ws, next, messages }));
    ws.on('error', reject);
  });
}

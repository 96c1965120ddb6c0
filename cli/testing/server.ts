/**
 * Test support for tests of running servers: JSON calls to the API and a socket client (ws) that
 * keeps every event it received.
 */
import WebSocket from 'ws';

/** A JSON call (POST when a body is given) with an access token; the body is parsed when JSON. */
export async function call(base: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers['x-access-token'] = opts.token;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path, base), {
    method: opts.body !== undefined ? 'POST' : 'GET',
    headers,
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
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

/**
 * The HTTP load of the listing benchmarks: `clients` concurrent loops of `perClient` sequential
 * requests, sent from a worker thread (so the clients do not share the event loop of a server in
 * this process) through node:http keep-alive sockets, one a client, with `accept-encoding: gzip`
 * as browsers send it. Reports each request's latency.
 */
import { Worker } from 'node:worker_threads';

const LOAD_SCRIPT = `
const { workerData: w, parentPort } = require('node:worker_threads');
const http = require('node:http');
// node:http with a keep-alive agent, one socket a client: a light client, so the numbers are the server's
const agent = new http.Agent({ keepAlive: true, maxSockets: w.clients });
let firstFailure;
const call = (url, body) => new Promise((resolve) => {
  const req = http.request(url, { method: w.method, agent, headers: { 'x-access-token': w.token, 'accept-encoding': 'gzip', 'content-type': 'application/json', ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } }, (res) => {
    // the first failure's answer is kept, so a load that fails (a rate limit, a bad token) says why
    let text = '';
    res.on('data', (d) => { if (res.statusCode !== 200 && !firstFailure && text.length < 300) text += d; });
    res.on('end', () => {
      if (res.statusCode !== 200 && !firstFailure) firstFailure = res.statusCode + ' ' + (res.headers['content-encoding'] ? '(compressed answer)' : text.slice(0, 300));
      resolve(res.statusCode);
    });
  });
  req.on('error', (err) => {
    firstFailure ??= 'no answer: ' + err.message;
    resolve(0);
  });
  req.end(body);
});
(async () => {
  const latencies = [];
  let failures = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: w.clients }, async (_, c) => {
    // client c sends to server c modulo the number of servers (the load balancer's round robin)
    const url = w.urls[c % w.urls.length];
    for (let i = 0; i < w.perClient; i++) {
      const s = performance.now();
      const status = await call(url, w.bodies[(c + i * w.clients) % w.bodies.length]);
      if (status !== 200) failures++;
      latencies.push(performance.now() - s);
    }
  }));
  agent.destroy();
  parentPort.postMessage({ latencies, failures, wall: performance.now() - started, firstFailure });
})();
`;

/** Latencies (ms, in the order answered), non-200 answers, and the load's wall time (ms). */
export interface LoadResult {
  latencies: number[];
  failures: number;
  wall: number;
  /** The first failure: its status and the start of its answer (or why nothing was answered). */
  firstFailure?: string;
}

/** One load: where to send it (full URLs, clients spread over them), how, and the bodies (request k of client c sends body (c + k * clients) mod bodies). */
export interface Load {
  urls: string[];
  token: string;
  bodies: Array<string | undefined>;
  method?: string;
  clients: number;
  perClient: number;
}

/**
 * Runs a load in a worker thread; a load with failures says so on stderr with the first one (a
 * failed request is answered fast, and its latency would pass for the server's).
 * @returns its latencies, failures and wall time
 */
export function runHttpLoad(load: Load): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_SCRIPT, { eval: true, workerData: { method: 'POST', ...load } });
    worker.once('message', (r: LoadResult) => {
      if (r.failures) process.stderr.write(`warning: ${r.failures} of ${r.latencies.length} requests failed; the first: ${r.firstFailure}\n`);
      resolve(r);
    });
    worker.once('error', reject);
  });
}

/** The p-th percentile (0-100) of ascending-sorted values (nearest rank). */
export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Milliseconds with one decimal. */
export const fmt = (n: number): string => n.toFixed(1);

/** A markdown table row of a load: requests, failures, p50, p95, requests/s. */
export function loadRow(name: string, r: LoadResult, extra: Array<string | number> = []): string {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return `| ${[name, ...extra, sorted.length, r.failures, fmt(percentile(sorted, 50)), fmt(percentile(sorted, 95)), fmt(sorted.length / (r.wall / 1000))].join(' | ')} |`;
}

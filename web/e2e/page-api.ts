/**
 * Calls the API from a signed-in browser page, with the page's session token, as the screens do:
 * JSON calls answering the payload (throwing on an error answer, with its status and errors),
 * multipart imports of fixture files, and the wait for a fund's work paper from the pipeline.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { Page } from 'playwright-core';

/** A page's API helpers. */
export function pageApi(page: Page) {
  const call = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
    page.evaluate(
      async ({ method, path, body }) => {
        const res = await fetch(`/api/v2.0${path}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = (await res.json()) as { payload: unknown; errors?: unknown };
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.errors)}`);
        return json.payload;
      },
      { method, path, body },
    ) as Promise<T>;

  return {
    call,
    get: <T>(path: string) => call<T>('GET', path),
    post: <T>(path: string, body: unknown) => call<T>('POST', path, body),

    /** Imports files of a folder for a TPA through `POST /import/files`, as the Import files screen does. */
    importFiles: (administrator: string, dir: string, names: string[]) =>
      page.evaluate(
        async ({ administrator, files }) => {
          const form = new FormData();
          form.append('administrator', administrator);
          for (const f of files) form.append('upload', new Blob([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))]), f.name);
          const res = await fetch('/api/v2.0/import/files', {
            method: 'POST',
            headers: { 'x-access-token': sessionStorage.getItem('fa.token') ?? '' },
            body: form,
          });
          if (!res.ok) throw new Error(`import failed: ${res.status} ${await res.text()}`);
        },
        { administrator, files: names.map((name) => ({ name, b64: readFileSync(join(dir, name)).toString('base64') })) },
      ),

    /** Ids of the listed funds by "name|administrator code" (the demo data's four funds and any added). */
    fundIds: async (): Promise<Record<string, number>> => {
      const listing = await call<{ rows: Array<{ id: number; name: string; administratorCode: string }> }>('POST', '/funds/listing', {
        pagination: { limit: 100 },
      });
      return Object.fromEntries(listing.rows.map((r) => [`${r.name}|${r.administratorCode}`, r.id]));
    },

    /** Waits until the pipeline has produced a fund's work paper (up to 90 s). */
    waitForWorkPaper: (fundId: number) =>
      vi.waitFor(
        async () => {
          const f = await call<{ workPapers: unknown[] }>('GET', `/fund/${fundId}`);
          if (f.workPapers.length !== 1) throw new Error(`fund request ${fundId} has no work paper yet`);
        },
        { timeout: 90_000, interval: 1000 },
      ),
  };
}

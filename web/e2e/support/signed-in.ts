/**
 * The set-up most browser suites share: a server of their own, headless Chromium, and one page
 * signed in to it (as the first administrator, or as a user added with the CLI), collecting the
 * page's uncaught errors so a suite can assert there were none.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newContext } from '../browser';
import { addUserWithLink, startServer, type ServerHandle, type StartOptions } from '../harness';
import { SignInPage } from '../pages/sign-in-page';

export interface SignedInOptions {
  /** Options of the server start (extra arguments, demo data). */
  server?: StartOptions;
  /** Written as the data directory's config.json before the first start (e.g. `{ devToolsEnabled: true }`). */
  config?: Record<string, unknown>;
  /** Sign in as this user (added with `users add`) instead of the first administrator. */
  user?: { email: string; name: string; role: string };
  /** Uncaught page errors are pushed here. */
  pageErrors?: string[];
}

/** A running server and a page signed in to it; `close` stops both. */
export interface SignedIn {
  server: ServerHandle;
  browser: Browser;
  page: Page;
  close: () => Promise<void>;
}

/** Starts a server and Chromium and signs one page in (see SignedInOptions). */
export async function openSignedIn(options: SignedInOptions = {}): Promise<SignedIn> {
  const start: StartOptions = { ...options.server };
  if (options.config) {
    start.dataDir ??= mkdtempSync(join(tmpdir(), 'fund-audit-e2e-'));
    writeFileSync(join(start.dataDir, 'config.json'), JSON.stringify(options.config));
  }
  const server = await startServer(start);
  const link = options.user ? addUserWithLink(server, options.user) : server.signInLink;
  const browser = await launchBrowser();
  const page = await (await newContext(browser)).newPage();
  const errors = options.pageErrors;
  if (errors) page.on('pageerror', (e) => errors.push(String(e)));
  await new SignInPage(page).signIn(link);
  return {
    server,
    browser,
    page,
    close: async () => {
      await browser.close();
      await server.stop();
    },
  };
}

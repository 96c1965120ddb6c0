/** Launches the machine's Debian Chromium through playwright-core (never downloads a browser). */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './harness';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Starts headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh browser context (own session storage) with a desktop viewport. */
export function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 800 } });
}

/** Path of a screenshot under web/e2e/screenshots/ (the folder is created). */
export function screenshotPath(name: string): string {
  const dir = join(repoRoot, 'web/e2e/screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

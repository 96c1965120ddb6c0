/**
 * The demo's chasing on both databases: a first start with demo data gives each demo TPA its data
 * contacts (from the fund requests' mailboxes) and an escalation contact, none of them named after
 * an address, and opens a missing-files chase, with its whole reminder history, on each demo fund
 * request still waiting for files.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../testing/dialects.js';
import { createTestContext, type TestContext } from '../../testing/context.js';
import { chaseEvents } from './history.js';
import { listContacts } from './contacts.js';
import { fundChases } from './chases.js';

describeEachDialect('demo chasing', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ dialect, seedDemoData: true });
  }, 120_000);
  afterAll(() => ctx.dispose());

  it('gives the demo TPAs contacts without made-up names', async () => {
    const meridian = await listContacts(ctx, { administratorCode: 'meridian_fund_services' });
    expect(meridian.map((c) => [c.role, c.email, c.full_name])).toEqual(
      expect.arrayContaining([
        ['data', 'meridian.reports@example.com', ''],
        ['data', 'meridian.transfer.agency@example.com', ''],
        ['escalation', 'escalations@meridian-fund-services.example.com', ''],
      ]),
    );
    for (const c of await listContacts(ctx)) expect(c.full_name).not.toContain('@');
  });

  it('opens a missing-files chase with its reminder history on each demo fund still waiting for files', async () => {
    const events = await chaseEvents(ctx);
    expect(events.length).toBeGreaterThan(0);
    const fundId = events[0]!.fundRequestId;
    const [chase] = await fundChases(ctx, fundId);
    expect(chase).toMatchObject({ reason: 'missing_files', state: 'sent', remindersSent: 4 });
    expect(chase!.recipients.filter((r) => r.role === 'escalation').map((r) => r.email)).toEqual([expect.stringMatching(/^escalations@.+\.example\.com$/)]);
    expect(chase!.recipients.every((r) => r.name === '')).toBe(true);
    expect(chase!.events.map((e) => e.state)).toEqual(['sent', 'sent', 'sent', 'sent', 'scheduled']);
  });
});

/**
 * The digest mail of one recipient (docs/chasing.md "The mail"): every open chase of theirs in one
 * mail, those that need action today first, each with its fund, reason, figures (expected,
 * delivered, difference) and a link to the fund in the product; the failing rows go as CSV
 * attachments. One template, a list of blocks, is rendered twice: HTML and plain text. Times are
 * shown in the recipient's time zone when known (else UTC). Pure functions.
 */
import { CHASE_REASON_LABELS, type ChaseReason } from '../../../rules/chasing.js';
import type { ChaseEvidence } from '../../db/schema/chasing.js';

/** A chase's id and the fund it chases, as every view of a chase names them (the fund's main code, its TPA's name, its data due date, ISO). */
export interface ChaseOfFund {
  id: number;
  fundRequestId: number;
  fundName: string;
  fundCode: string | null;
  client: string | null;
  administrator: string | null;
  dueDate: string | null;
}

/** One chase as the digest shows it. */
export interface DigestChase extends ChaseOfFund {
  reason: ChaseReason;
  message: string;
  evidence: ChaseEvidence;
  openedAt: string;
  /** In today's run's due list (new or a reminder), with its note. */
  dueNote: string | null;
  /** The CSV attachment's file name, when it has failing rows. */
  attachment: string | null;
}

/** A block of the template. */
type Block =
  | { kind: 'h1' | 'h2' | 'p' | 'small'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'list'; items: string[] }
  | { kind: 'rule' };

const money = (n: number | null, currency: string | null) =>
  n === null ? '-' : `${n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ''}`;

/** An instant as the recipient reads it: `7 Dec 2026, 07:00 CET` in their zone (UTC when unknown or not valid). */
export function localTime(iso: string, timeZone: string | null): string {
  const fmt = (tz: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(iso));
  try {
    return fmt(timeZone ?? 'UTC');
  } catch {
    return fmt('UTC');
  }
}

/** The link to a fund's open chases in the product. */
export const chaseLink = (baseUrl: string, fundRequestId: number) => `${baseUrl}/chases?fund=${fundRequestId}`;

function chaseBlocks(c: DigestChase, baseUrl: string, timeZone: string | null): Block[] {
  const title = `${c.fundName}${c.fundCode ? ` (${c.fundCode})` : ''}: ${c.evidence.checkLabel ?? CHASE_REASON_LABELS[c.reason]}`;
  const blocks: Block[] = [{ kind: 'h2', text: title }];
  const facts = [
    c.client ? `Client: ${c.client}` : null,
    c.administrator ? `TPA: ${c.administrator}` : null,
    c.dueDate ? `Data due: ${c.dueDate}` : null,
    `Open since: ${localTime(c.openedAt, timeZone)}`,
    c.dueNote ? `This mail: ${c.dueNote}` : null,
  ].filter((x): x is string => !!x);
  blocks.push({ kind: 'small', text: facts.join(' · ') });
  if (c.evidence.missingTypes?.length)
    blocks.push({ kind: 'p', text: `Please deliver: ${c.evidence.missingTypes.map((t) => t.replace(/_/g, ' ')).join(', ')}.` });
  if (c.reason === 'returned')
    blocks.push({ kind: 'p', text: `Returned by the reviewer${c.evidence.fileName ? ` (file ${c.evidence.fileName})` : ''}: ${c.message}` });
  else if (c.reason === 'failed_check') blocks.push({ kind: 'p', text: c.message });
  const figures = c.evidence.figures ?? [];
  if (figures.length)
    blocks.push({
      kind: 'table',
      head: ['Item', 'Expected', 'Delivered', 'Difference'],
      rows: figures.map((f) => [f.label, money(f.expected, f.currency), money(f.delivered, f.currency), money(f.difference, f.currency)]),
    });
  const items = (c.evidence.items ?? []).filter((i) => !figures.some((f) => f.label === i.name));
  if (items.length)
    blocks.push({ kind: 'list', items: items.map((i) => `${i.name}: ${i.message}${i.file ? ` (${i.file}${i.line ? ` line ${i.line}` : ''})` : ''}`) });
  if (c.attachment) blocks.push({ kind: 'small', text: `The ${c.evidence.rowCount ?? ''} failing row(s) are attached as ${c.attachment}.`.replace('  ', ' ') });
  blocks.push({ kind: 'link', text: 'Open the fund and upload the file', href: chaseLink(baseUrl, c.fundRequestId) });
  return blocks;
}

/** The template of a digest. */
function digestBlocks(to: { name: string; timeZone: string | null }, chases: DigestChase[], baseUrl: string, at: string): Block[] {
  const due = chases.filter((c) => c.dueNote);
  const rest = chases.filter((c) => !c.dueNote);
  const blocks: Block[] = [
    { kind: 'h1', text: 'Fund Audit: data requests needing your attention' },
    { kind: 'p', text: `${to.name ? `Dear ${to.name},` : 'Hello,'}` },
    {
      kind: 'p',
      text: `${due.length} request${due.length === 1 ? ' needs' : 's need'} your action${rest.length ? `, and ${rest.length} more ${rest.length === 1 ? 'is' : 'are'} still open` : ''}. Upload the missing or corrected file from the link of each fund; the request closes by itself once the file passes the checks.`,
    },
  ];
  for (const c of due) blocks.push({ kind: 'rule' }, ...chaseBlocks(c, baseUrl, to.timeZone));
  if (rest.length) {
    blocks.push({ kind: 'rule' }, { kind: 'h2', text: 'Still open' });
    for (const c of rest) blocks.push(...chaseBlocks(c, baseUrl, to.timeZone));
  }
  blocks.push(
    { kind: 'rule' },
    { kind: 'small', text: `Sent ${localTime(at, to.timeZone)} by Fund Audit. Reply to this mail to reach the audit delivery team.` },
  );
  return blocks;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function html(blocks: Block[]): string {
  const body = blocks
    .map((b) => {
      switch (b.kind) {
        case 'h1':
          return `<h1 style="font-size:18px;margin:0 0 12px">${esc(b.text)}</h1>`;
        case 'h2':
          return `<h2 style="font-size:15px;margin:16px 0 4px">${esc(b.text)}</h2>`;
        case 'p':
          return `<p style="margin:6px 0">${esc(b.text)}</p>`;
        case 'small':
          return `<p style="margin:4px 0;color:#555;font-size:12px">${esc(b.text)}</p>`;
        case 'link':
          return `<p style="margin:8px 0"><a href="${esc(b.href)}">${esc(b.text)}</a></p>`;
        case 'list':
          return `<ul style="margin:6px 0">${b.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
        case 'rule':
          return '<hr style="border:0;border-top:1px solid #ddd;margin:16px 0">';
        case 'table':
          return `<table style="border-collapse:collapse;font-size:13px;margin:6px 0"><thead><tr>${b.head.map((h) => `<th style="text-align:left;border-bottom:1px solid #999;padding:2px 8px">${esc(h)}</th>`).join('')}</tr></thead><tbody>${b.rows
            .map((r) => `<tr>${r.map((c, i) => `<td style="padding:2px 8px;${i ? 'text-align:right' : ''}">${esc(c)}</td>`).join('')}</tr>`)
            .join('')}</tbody></table>`;
      }
    })
    .join('\n');
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222">\n${body}\n</body></html>`;
}

function text(blocks: Block[]): string {
  const lines: string[] = [];
  for (const b of blocks) {
    if (b.kind === 'h1') lines.push(b.text.toUpperCase(), '');
    else if (b.kind === 'h2') lines.push('', b.text, '-'.repeat(Math.min(72, b.text.length)));
    else if (b.kind === 'p' || b.kind === 'small') lines.push(b.text);
    else if (b.kind === 'link') lines.push(`${b.text}: ${b.href}`);
    else if (b.kind === 'list') for (const i of b.items) lines.push(`  - ${i}`);
    else if (b.kind === 'rule') lines.push('', '='.repeat(72));
    else if (b.kind === 'table') {
      const widths = b.head.map((h, i) => Math.max(h.length, ...b.rows.map((r) => r[i]!.length)));
      const row = (r: string[]) => `  ${r.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ')}`;
      lines.push(row(b.head), ...b.rows.map(row));
    }
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

/**
 * Renders one recipient's digest.
 * @param at ISO timestamp of the run (shown in the recipient's zone)
 * @returns subject, HTML and plain text of the same content
 */
export function renderDigest(to: { name: string; timeZone: string | null }, chases: DigestChase[], baseUrl: string, at: string) {
  const due = chases.filter((c) => c.dueNote);
  const first = due[0] ?? chases[0]!;
  const subject =
    due.length === 1
      ? `Fund Audit: ${first.evidence.checkLabel ?? CHASE_REASON_LABELS[first.reason]} - ${first.fundName}`
      : `Fund Audit: ${due.length} data requests need your action`;
  const blocks = digestBlocks(to, chases, baseUrl, at);
  return { subject, html: html(blocks), text: text(blocks) };
}

/**
 * Synchronous xlsx (Office Open XML spreadsheet) reader for identification (DOMAIN.md 2.2).
 *
 * Why not exceljs here: `readTables` is synchronous (the identification job calls it inline) and
 * exceljs only loads workbooks asynchronously. This reader gives the same cell values exceljs does
 * for what TPA files contain (checked against exceljs in `xlsx.test.ts`): numbers stay numbers,
 * cells with a date number format become `Date` (UTC midnight + time of day), formula cells give
 * their cached result, shared and inline rich text is flattened to plain text, booleans become
 * `TRUE` / `FALSE`, error cells their error text (`#VALUE!`). Worksheets only (no chartsheets), in
 * workbook order; blank rows are skipped, so empty trailing rows are dropped.
 */
import { posix } from 'node:path';
import type { Cell } from './values.js';
import { openZip } from './zip.js';

/** One worksheet: its name and its non-blank rows (`line` = 1-based row number in the sheet). */
export interface XlsxSheet {
  name: string;
  rows: Array<{ line: number; cells: Cell[] }>;
}

/** Why a workbook could not be read. */
export class XlsxError extends Error {
  override name = 'XlsxError';
}

const P = '(?:[A-Za-z_][\\w.-]*:)?'; // optional namespace prefix of an element name

const ENTITY = /&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML entities and the OOXML `_xHHHH_` escapes of a text node. */
export function xmlText(s: string): string {
  let out = s.includes('&')
    ? s.replace(ENTITY, (_, e: string) => (e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : NAMED[e]))
    : s;
  if (out.includes('_x')) out = out.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return out;
}

/** Attributes of a start tag's attribute text, by name (prefix kept, e.g. `r:id`). */
function attrs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]] = xmlText(m[2] ?? m[3] ?? '');
  return out;
}

/** Concatenated `<t>` texts of a string item, phonetic runs (`<rPh>`) left out. */
function richText(s: string): string {
  const body = s.includes('rPh') ? s.replace(new RegExp(`<${P}rPh\\b[\\s\\S]*?</${P}rPh>`, 'g'), '') : s;
  let out = '';
  for (const m of body.matchAll(new RegExp(`<${P}t(?:\\s[^>]*)?>([\\s\\S]*?)</${P}t>`, 'g'))) out += m[1];
  return xmlText(out);
}

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** True when an Excel number format code shows a date or time. */
export function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '');
  return /[dmyhs]/i.test(bare.replace(/General/gi, '')) && !/^[#0.,%\s-]*$/.test(bare);
}

/** Style indexes (cellXfs) whose number format is a date. */
function dateStyles(xml: string | null): Set<number> {
  const out = new Set<number>();
  if (!xml) return out;
  const custom = new Map<number, string>();
  for (const m of xml.matchAll(new RegExp(`<${P}numFmt\\b([^>]*)>`, 'g'))) {
    const a = attrs(m[1]);
    custom.set(Number(a.numFmtId), a.formatCode ?? '');
  }
  const xfs = new RegExp(`<${P}cellXfs\\b[^>]*>([\\s\\S]*?)</${P}cellXfs>`).exec(xml);
  if (!xfs) return out;
  let i = 0;
  for (const m of xfs[1].matchAll(new RegExp(`<${P}xf\\b([^>]*)>`, 'g'))) {
    const id = Number(attrs(m[1]).numFmtId ?? 0);
    const code = custom.get(id);
    if (code !== undefined ? isDateFormatCode(code) : BUILTIN_DATE_FORMATS.has(id)) out.add(i);
    i++;
  }
  return out;
}

/** 1-based column number of a cell reference such as `AB12`. */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n;
}

/** Serial day number to Date (UTC), 1900 or 1904 date system. */
function serialToDate(serial: number, date1904: boolean): Date {
  if (date1904) return new Date(Date.UTC(1904, 0, 1) + Math.round(serial * 86_400_000));
  return new Date(Date.UTC(1899, 11, 30) + Math.round((serial < 60 ? serial + 1 : serial) * 86_400_000));
}

interface Ctx {
  shared: string[];
  dates: Set<number>;
  date1904: boolean;
}

const ROW_RE = new RegExp(`<${P}row\\b([^>]*?)(?:/>|>([\\s\\S]*?)</${P}row>)`, 'g');
const CELL_RE = new RegExp(`<${P}c\\b([^>]*?)(?:/>|>([\\s\\S]*?)</${P}c>)`, 'g');
const V_RE = new RegExp(`<${P}v(?:\\s[^>]*)?>([\\s\\S]*?)</${P}v>`);
const IS_RE = new RegExp(`<${P}is\\b[^>]*>([\\s\\S]*?)</${P}is>`);

function cellValue(a: Record<string, string>, body: string | undefined, ctx: Ctx): Cell {
  if (!body) return null;
  const t = a.t ?? 'n';
  if (t === 'inlineStr') {
    const is = IS_RE.exec(body);
    return is ? richText(is[1]) : null;
  }
  const v = V_RE.exec(body);
  if (!v) return null;
  const raw = v[1];
  switch (t) {
    case 's': {
      const s = ctx.shared[Number(raw)];
      return s === undefined ? null : s;
    }
    case 'str':
    case 'e':
      return xmlText(raw);
    case 'b':
      return raw.trim() === '1' || raw.trim() === 'true' ? 'TRUE' : 'FALSE';
    case 'd': {
      const d = new Date(xmlText(raw).trim());
      return Number.isNaN(d.getTime()) ? xmlText(raw) : d;
    }
    default: {
      if (raw.trim() === '') return null;
      const n = Number(raw);
      if (!Number.isFinite(n)) return xmlText(raw);
      return a.s !== undefined && ctx.dates.has(Number(a.s)) ? serialToDate(n, ctx.date1904) : n;
    }
  }
}

function readSheet(xml: string, ctx: Ctx): XlsxSheet['rows'] {
  const rows: XlsxSheet['rows'] = [];
  const start = xml.search(new RegExp(`<${P}sheetData\\b`));
  if (start < 0) return rows;
  const data = xml.slice(start);
  let lastLine = 0;
  for (const rm of data.matchAll(ROW_RE)) {
    const ra = attrs(rm[1]);
    const line = ra.r ? Number(ra.r) : lastLine + 1;
    lastLine = line;
    if (!rm[2]) continue;
    const cells: Cell[] = [];
    let col = 0;
    let any = false;
    for (const cm of rm[2].matchAll(CELL_RE)) {
      const ca = attrs(cm[1]);
      col = ca.r ? columnOf(ca.r) : col + 1;
      const value = cellValue(ca, cm[2], ctx);
      if (value === null || (typeof value === 'string' && value.trim() === '')) continue;
      while (cells.length < col - 1) cells.push(null);
      cells[col - 1] = value;
      any = true;
    }
    if (any) rows.push({ line, cells });
  }
  return rows;
}

/** Resolves a relationship target against the folder of the part that owns it. */
function resolveTarget(base: string, target: string): string {
  return target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(base), target));
}

/** Targets of a part's relationships by id. */
function relationships(xml: string | null, owner: string): Map<string, { target: string; type: string }> {
  const out = new Map<string, { target: string; type: string }>();
  if (!xml) return out;
  for (const m of xml.matchAll(new RegExp(`<${P}Relationship\\b([^>]*)>`, 'g'))) {
    const a = attrs(m[1]);
    if (a.Id && a.Target && a.TargetMode !== 'External') out.set(a.Id, { target: resolveTarget(owner, a.Target), type: a.Type ?? '' });
  }
  return out;
}

/**
 * Reads every worksheet of an xlsx workbook.
 * @param bytes the whole file
 * @returns the sheets in workbook order with their non-blank rows
 * @throws XlsxError (or ZipError) when the package has no workbook or a part cannot be read
 */
export function readXlsx(bytes: Uint8Array): XlsxSheet[] {
  const zip = openZip(bytes);
  const text = (name: string): string | null => zip.read(name)?.toString('utf8') ?? null;
  const rootRels = relationships(text('_rels/.rels'), '');
  const office = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  const workbook = text(office);
  if (!workbook) throw new XlsxError('the zip archive holds no spreadsheet workbook (is it an xlsx file?)');
  const rels = relationships(text(`${posix.dirname(office)}/_rels/${posix.basename(office)}.rels`), office);
  const pr = new RegExp(`<${P}workbookPr\\b([^>]*)>`).exec(workbook);
  const date1904 = pr ? /^(1|true)$/.test(attrs(pr[1]).date1904 ?? '') : false;
  const byType = (suffix: string) => [...rels.values()].find((r) => r.type.endsWith(suffix))?.target ?? null;
  const sstPath = byType('/sharedStrings');
  const sstXml = sstPath ? text(sstPath) : null;
  const shared = sstXml ? [...sstXml.matchAll(new RegExp(`<${P}si\\b[^>]*>([\\s\\S]*?)</${P}si>|<${P}si\\s*/>`, 'g'))].map((m) => (m[1] ? richText(m[1]) : '')) : [];
  const stylesPath = byType('/styles');
  const ctx: Ctx = { shared, dates: dateStyles(stylesPath ? text(stylesPath) : null), date1904 };
  const sheets: XlsxSheet[] = [];
  for (const m of workbook.matchAll(new RegExp(`<${P}sheet\\b([^>]*)>`, 'g'))) {
    const a = attrs(m[1]);
    const rid = Object.entries(a).find(([k]) => /:id$/.test(k))?.[1];
    const rel = rid ? rels.get(rid) : undefined;
    if (!rel || !rel.type.endsWith('/worksheet')) continue;
    const xml = text(rel.target);
    if (xml === null) throw new XlsxError(`worksheet ${a.name ?? rid} is missing from the package (${rel.target})`);
    sheets.push({ name: a.name ?? rel.target, rows: readSheet(xml, ctx) });
  }
  return sheets;
}

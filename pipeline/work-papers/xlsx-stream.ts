/**
 * A streaming xlsx (SpreadsheetML, ECMA-376 part 1) writer for work papers: each sheet's XML is
 * written as rows come and handed to the zip entry of its part (archiver, level 1 deflate on
 * zlib's thread pool), so memory holds the distinct texts (shared strings), the styles used and
 * the bytes not yet compressed, never a cell object. Written for the work papers' cells: texts
 * (shared strings), numbers, and dates as Excel serial numbers, each with a cell style of one
 * number format and an optional bold font; a frozen header, column widths
 * (docs/decisions/0018-work-papers-written-as-spreadsheetml.md).
 *
 * A sheet is written row by row through `XlsxSheet`: `cell...` calls between `row()` calls (no
 * per-cell object), then `end()`. Sheets are stored in the order added; a sheet added while an
 * earlier one is still being compressed waits in memory for its turn, so write them one after
 * the other and call `drain()` every few hundred rows of a long one.
 */
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

/** Characters of sheet XML gathered before they are handed to the zip. */
const CHUNK_CHARS = 1 << 16;

/** Number formats with a built-in id (ECMA-376 part 1, 18.8.30), written without a numFmt element. */
const BUILTIN_FORMATS: Record<string, number> = {
  General: 0,
  '0': 1,
  '0.00': 2,
  '#,##0': 3,
  '#,##0.00': 4,
  '0%': 9,
  '0.00%': 10,
  '0.00E+00': 11,
  '@': 49,
};

/** The first id of the workbook's own number formats (ids below are built in). */
const FIRST_CUSTOM_FORMAT = 164;

/** Excel's longest sheet name, and the characters a name may not hold (Excel's rules for a sheet name). */
const MAX_SHEET_NAME = 31;
const BAD_SHEET_NAME = /[\\/?*[\]:]/;

/** Characters XML 1.0 does not allow, removed from texts, and the DEL that spreadsheet programs show as a box. */
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const XML_SPECIAL = /[&<>"']/;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `s` as XML text or attribute value: markup characters escaped, characters XML cannot carry removed. */
export function xmlText(s: string): string {
  const clean = s.replace(INVALID_XML, '');
  return XML_SPECIAL.test(clean) ? clean.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]) : clean;
}

/** The column letters of a 0-based column index (0 -> A, 25 -> Z, 26 -> AA). */
export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const MS_PER_DAY = 86_400_000;
/** Days from Excel's day 0 (1899-12-30 in the 1900 date system) to 1970-01-01. */
const EPOCH_SERIAL = 25569;

/** A date as an Excel serial number (1900 date system, the time of day as a fraction; UTC). */
export const excelSerial = (d: Date): number => EPOCH_SERIAL + d.getTime() / MS_PER_DAY;

/** How a sheet looks: column widths (in characters) and the rows frozen at its top. */
export interface SheetOptions {
  widths?: readonly number[];
  frozenRows?: number;
}

/** The workbook's document properties. */
export interface WorkbookProperties {
  creator: string;
  created: Date;
}

interface SheetEntry {
  name: string;
  part: string;
}

/**
 * One workbook being written to `out` (ended once `commit` resolves). Throws on a sheet name
 * Excel refuses; `commit` rejects when the zip fails.
 */
export class XlsxWorkbook {
  private readonly zip = new ZipArchive({ zlib: { level: 1 } });
  private readonly sheets: SheetEntry[] = [];
  private readonly open: XlsxSheet[] = [];
  private readonly names = new Set<string>();
  private readonly strings = new Map<string, number>();
  private readonly stringList: string[] = [];
  private stringRefs = 0;
  private readonly formats = new Map<string, number>();
  private readonly styles = new Map<string, number>();
  private readonly xfs: Array<{ numFmtId: number; bold: boolean }> = [{ numFmtId: 0, bold: false }];
  private failure: Error | null = null;
  private readonly done: Promise<void>;

  constructor(
    private readonly out: Writable,
    private readonly props: WorkbookProperties,
  ) {
    this.zip.on('error', (err: Error) => {
      this.failure ??= err;
    });
    this.zip.on('warning', (err: Error) => {
      this.failure ??= err;
    });
    this.zip.pipe(out);
    this.done = finished(out);
    // a failure is reported by `commit`; until then it must not be an unhandled rejection
    this.done.catch(() => undefined);
  }

  /** Opens the next sheet. Throws a RangeError for a name Excel refuses or one already used. */
  addSheet(name: string, options: SheetOptions = {}): XlsxSheet {
    if (!name || name.length > MAX_SHEET_NAME || BAD_SHEET_NAME.test(name) || name.startsWith("'") || name.endsWith("'"))
      throw new RangeError(`'${name}' is not a sheet name Excel accepts (1-${MAX_SHEET_NAME} characters, none of \\ / ? * [ ] :)`);
    if (this.names.has(name.toLowerCase())) throw new RangeError(`The workbook already has a sheet named '${name}'`);
    this.names.add(name.toLowerCase());
    const part = `xl/worksheets/sheet${this.sheets.length + 1}.xml`;
    this.sheets.push({ name, part });
    const stream = new PassThrough({ highWaterMark: CHUNK_CHARS * 2 });
    this.zip.append(stream, { name: part, date: this.props.created });
    const sheet = new XlsxSheet(this, stream, options);
    this.open.push(sheet);
    return sheet;
  }

  /** The shared-string index of a text (added on first use). */
  text(s: string): number {
    this.stringRefs++;
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.stringList.length;
      this.stringList.push(s);
      this.strings.set(s, i);
    }
    return i;
  }

  /** The cell style (index into cellXfs) of a number format (null: General) and weight, registered on first use. */
  style(numFmt: string | null, bold: boolean): number {
    const key = `${bold ? 'b' : ''}|${numFmt ?? ''}`;
    let s = this.styles.get(key);
    if (s === undefined) {
      let numFmtId = numFmt === null ? 0 : (BUILTIN_FORMATS[numFmt] ?? this.formats.get(numFmt));
      if (numFmtId === undefined) {
        numFmtId = FIRST_CUSTOM_FORMAT + this.formats.size;
        this.formats.set(numFmt as string, numFmtId);
      }
      s = this.xfs.length;
      this.xfs.push({ numFmtId, bold });
      this.styles.set(key, s);
    }
    return s;
  }

  /** Closes the sheets still open, writes the workbook's remaining parts and the zip's directory; resolves once `out` has every byte. */
  async commit(): Promise<void> {
    for (const sheet of this.open) sheet.end();
    const add = (name: string, xml: string) => this.zip.append(xml, { name, date: this.props.created });
    add('[Content_Types].xml', this.contentTypes());
    add(
      '_rels/.rels',
      rels(
        [`${NS_REL}/officeDocument`, 'xl/workbook.xml'],
        [`${NS_PKG_REL}/metadata/core-properties`, 'docProps/core.xml'],
        [`${NS_REL}/extended-properties`, 'docProps/app.xml'],
      ),
    );
    add('docProps/core.xml', this.coreProperties());
    add('docProps/app.xml', this.appProperties());
    add('xl/workbook.xml', this.workbookXml());
    add(
      'xl/_rels/workbook.xml.rels',
      rels(
        ...this.sheets.map((s): [string, string] => [`${NS_REL}/worksheet`, s.part.slice(3)]),
        [`${NS_REL}/styles`, 'styles.xml'],
        [`${NS_REL}/sharedStrings`, 'sharedStrings.xml'],
      ),
    );
    add('xl/styles.xml', this.stylesXml());
    const sst = new PassThrough({ highWaterMark: CHUNK_CHARS * 2 });
    this.zip.append(sst, { name: 'xl/sharedStrings.xml', date: this.props.created });
    const finalized = this.zip.finalize();
    await this.writeSharedStrings(sst);
    await finalized;
    await this.done;
    if (this.failure) throw this.failure;
  }

  private async writeSharedStrings(sst: PassThrough): Promise<void> {
    let xml = `${XML_HEAD}<sst xmlns="${NS_MAIN}" count="${this.stringRefs}" uniqueCount="${this.stringList.length}">`;
    for (const s of this.stringList) {
      xml += /^\s|\n|\s$/.test(s) ? `<si><t xml:space="preserve">${xmlText(s)}</t></si>` : `<si><t>${xmlText(s)}</t></si>`;
      if (xml.length >= CHUNK_CHARS) {
        const room = sst.write(xml);
        xml = '';
        if (!room) await once(sst, 'drain');
      }
    }
    sst.end(`${xml}</sst>`);
  }

  private contentTypes(): string {
    const override = (part: string, type: string) => `<Override PartName="/${part}" ContentType="${type}"/>`;
    return (
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      override('xl/workbook.xml', `${CT}.spreadsheetml.sheet.main+xml`) +
      this.sheets.map((s) => override(s.part, `${CT}.spreadsheetml.worksheet+xml`)).join('') +
      override('xl/styles.xml', `${CT}.spreadsheetml.styles+xml`) +
      override('xl/sharedStrings.xml', `${CT}.spreadsheetml.sharedStrings+xml`) +
      override('docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml') +
      override('docProps/app.xml', `${CT}.extended-properties+xml`) +
      '</Types>'
    );
  }

  private coreProperties(): string {
    const when = `${this.props.created.toISOString().slice(0, 19)}Z`;
    return (
      `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
      `<dc:creator>${xmlText(this.props.creator)}</dc:creator><cp:lastModifiedBy>${xmlText(this.props.creator)}</cp:lastModifiedBy>` +
      `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified></cp:coreProperties>`
    );
  }

  private appProperties(): string {
    const n = this.sheets.length;
    return (
      `${XML_HEAD}<Properties xmlns="${NS_MAIN.replace('spreadsheetml/2006/main', 'officeDocument/2006/extended-properties')}" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
      `<Application>${xmlText(this.props.creator)}</Application><HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>${n}</vt:i4></vt:variant></vt:vector></HeadingPairs>` +
      `<TitlesOfParts><vt:vector size="${n}" baseType="lpstr">${this.sheets.map((s) => `<vt:lpstr>${xmlText(s.name)}</vt:lpstr>`).join('')}</vt:vector></TitlesOfParts></Properties>`
    );
  }

  private workbookXml(): string {
    return (
      `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><bookViews><workbookView/></bookViews><sheets>` +
      this.sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>'
    );
  }

  private stylesXml(): string {
    const font = (bold: boolean) => `<font>${bold ? '<b/>' : ''}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;
    const formats = [...this.formats].map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`).join('');
    const xf = (x: { numFmtId: number; bold: boolean }) =>
      `<xf numFmtId="${x.numFmtId}" fontId="${x.bold ? 1 : 0}" fillId="0" borderId="0" xfId="0"${x.numFmtId ? ' applyNumberFormat="1"' : ''}${x.bold ? ' applyFont="1"' : ''}/>`;
    return (
      `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">` +
      (this.formats.size ? `<numFmts count="${this.formats.size}">${formats}</numFmts>` : '') +
      `<fonts count="2">${font(false)}${font(true)}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.length}">${this.xfs.map(xf).join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}

/** A relationships part: one relationship per [type, target], ids rId1, rId2, … in order. */
function rels(...targets: Array<[string, string]>): string {
  return `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">${targets.map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="${type}" Target="${target}"/>`).join('')}</Relationships>`;
}

/**
 * One sheet's XML being written: `row()` starts the next row (1-based, in order), the `cell...`
 * methods add cells to it (0-based columns, left to right, at most one a column), `end()` closes
 * the sheet. A row without cells is left out of the XML (it is still counted).
 */
export class XlsxSheet {
  private xml: string;
  private ended = false;
  private rowNumber = 0;
  private rowRef = '';
  private rowOpen = false;
  private readonly refs: string[] = [];

  constructor(
    private readonly wb: XlsxWorkbook,
    private readonly stream: PassThrough,
    options: SheetOptions,
  ) {
    const frozen = options.frozenRows ?? 0;
    const views = frozen
      ? `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${frozen}" topLeftCell="A${frozen + 1}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>`
      : '<sheetViews><sheetView workbookViewId="0"/></sheetViews>';
    const widths = options.widths ?? [];
    const cols = widths.length ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` : '';
    this.xml = `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">${views}<sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>`;
  }

  /** The cell reference prefix of a column (its letters), made once a column. */
  private ref(col: number): string {
    return this.refs[col] ?? (this.refs[col] = columnLetters(col));
  }

  /** Starts the next row; returns its 1-based number. */
  row(): number {
    this.closeRow();
    this.rowNumber++;
    this.rowRef = `${this.rowNumber}`;
    return this.rowNumber;
  }

  private open(): void {
    if (!this.rowOpen) {
      this.xml += `<row r="${this.rowRef}">`;
      this.rowOpen = true;
    }
  }

  private closeRow(): void {
    if (this.rowOpen) {
      this.xml += '</row>';
      this.rowOpen = false;
    }
    if (this.xml.length >= CHUNK_CHARS) {
      this.stream.write(this.xml);
      this.xml = '';
    }
  }

  /** A text cell (a shared string) with cell style `style` (0: none). */
  text(col: number, s: string, style: number): void {
    this.open();
    this.xml += style
      ? `<c r="${this.ref(col)}${this.rowRef}" s="${style}" t="s"><v>${this.wb.text(s)}</v></c>`
      : `<c r="${this.ref(col)}${this.rowRef}" t="s"><v>${this.wb.text(s)}</v></c>`;
  }

  /** A number cell (finite numbers only) with cell style `style` (0: none). */
  number(col: number, n: number, style: number): void {
    this.open();
    this.xml += style ? `<c r="${this.ref(col)}${this.rowRef}" s="${style}"><v>${n}</v></c>` : `<c r="${this.ref(col)}${this.rowRef}"><v>${n}</v></c>`;
  }

  /** Waits while the sheet's XML waits to be compressed (the zip takes sheets one at a time, in order). */
  async drain(): Promise<void> {
    if (this.stream.writableNeedDrain) await once(this.stream, 'drain');
  }

  /** Closes the sheet (no row may follow); closing it again does nothing. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.closeRow();
    this.stream.end(`${this.xml}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`);
    this.xml = '';
  }
}

/**
 * What the listing benchmarks share: the generated fund requests (deterministic, one seed, the
 * same distributions whatever the database they are written to) and the listing queries they send.
 * Used by `listing.bench.ts` (SQLite) and `listing-pg.bench.ts` (PostgreSQL).
 */
import type { ListingInput } from '../server/services/funds/listing.js';

const STATUSES = ['Pending', 'Approved', 'Approved', 'Approved', 'Completed - Fund Closed', 'Issued', 'Paused', 'Declined', 'Deleted'];
const CLIENTS_NAMES = [
  'Orion Capital',
  'Helix Partners',
  'Atlas Asset Management',
  'Boreal Investments',
  'Cygnus Wealth',
  'Draco Advisors',
  'Lyra Funds',
  'Vega Group',
];
const STAGES = ['identification', 'standardization', 'calculations', 'visualization'];
const PSTATUS = ['pending', 'running', 'done', 'done', 'error'];
const FILE_TYPES = ['trial_balance', 'holdings', 'transactions', 'share_capital'];
const FILE_STATUS = ['raw', 'pending', 'processed', 'assigned', 'assigned', 'assigned', 'error'];

/** How many administrators the generated funds are spread over (`tpa_0` ... `tpa_39`). */
export const ADMINISTRATORS = 40;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function isoDay(base: number, offsetDays: number): string {
  return new Date(base + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** One generated fund request with what hangs off it; funds are numbered from 1 in the order generated. */
export interface GeneratedFund {
  /** 1-based number of the fund (its id when written to an empty table). */
  n: number;
  /** Index of its administrator, 0 .. ADMINISTRATORS - 1. */
  administrator: number;
  name: string;
  client: string;
  status: string;
  country: string;
  currency: string;
  jobType: string;
  periodEnd: string;
  dueDate: string;
  requestDate: string;
  pm: number;
  te: number;
  sad: number;
  dataRequestStatus: string;
  /** Number of the parent fund (an earlier one), or null. */
  parent: number | null;
  /** `[code, main]`: the main code `FC<n>` and, for some, an alternate `ALT<n>`. */
  codes: Array<[string, boolean]>;
  files: Array<{ kind: 'input' | 'work_paper'; fileType: string; fileName: string; status: string; reviewed: boolean; disabled: boolean }>;
  processes: Array<{ stage: string; status: string }>;
}

/** The `fund_requests` columns a generated fund fills, in the order of `fundValues`. */
export const FUND_COLUMNS =
  'administrator_id, name, client, status, country, currency, job_type, period_end, due_date, request_date, pm, te, sad, data_request_status, parent_id';

/**
 * A generated fund's values for `FUND_COLUMNS`.
 * @param adminId the row id of its administrator
 * @param parentId the row id of its parent fund, or null
 */
export function fundValues(f: GeneratedFund, adminId: number, parentId: number | null): unknown[] {
  return [
    adminId,
    f.name,
    f.client,
    f.status,
    f.country,
    f.currency,
    f.jobType,
    f.periodEnd,
    f.dueDate,
    f.requestDate,
    f.pm,
    f.te,
    f.sad,
    f.dataRequestStatus,
    parentId,
  ];
}

/**
 * Fund requests 1 .. `count`, as a delivery team's listing holds them: 9 statuses (a third Open),
 * 8 clients, request dates over ~3 years, 30% with an alternate code, 60% with input files, 30%
 * with a work paper, 50% with a process, 5% children of an earlier fund. Same seed, same funds.
 */
export function* generateFunds(count: number): Generator<GeneratedFund> {
  const rand = rng(42);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const base = Date.parse('2023-01-01T00:00:00Z');
  const admins = Array.from({ length: ADMINISTRATORS }, (_, i) => i);
  for (let i = 1; i <= count; i++) {
    // the order of the draws is the generator's contract: changing it changes every fund
    const day = Math.floor(rand() * 1000);
    const administrator = pick(admins);
    const name = `Fund ${i} ${pick(['Equity', 'Bond', 'Balanced', 'Income', 'Growth'])}`;
    const client = pick(CLIENTS_NAMES);
    const status = pick(STATUSES);
    const country = pick(['LU', 'IE', 'GB', 'US']);
    const currency = pick(['EUR', 'USD', 'GBP']);
    const jobType = rand() < 0.2 ? 'SOI_ONLY' : 'FULL';
    const pm = Math.round(rand() * 1000) / 100;
    const dataRequestStatus = pick(['NotRequested', 'Requested', 'Chased1']);
    const parent = i > 10 && rand() < 0.05 ? i - 1 - Math.floor(rand() * 5) : null;
    const fund: GeneratedFund = {
      n: i,
      administrator,
      name,
      client,
      status,
      country,
      currency,
      jobType,
      periodEnd: isoDay(base, day - 30),
      dueDate: isoDay(base, day + 60),
      requestDate: isoDay(base, day),
      pm,
      te: 3.75,
      sad: 0.25,
      dataRequestStatus,
      parent,
      codes: [[`FC${String(i).padStart(6, '0')}`, true]],
      files: [],
      processes: [],
    };
    if (rand() < 0.3) fund.codes.push([`ALT${String(i).padStart(6, '0')}`, false]);
    if (rand() < 0.6)
      for (const t of FILE_TYPES)
        if (rand() < 0.8) {
          const fileStatus = pick(FILE_STATUS);
          fund.files.push({ kind: 'input', fileType: t, fileName: `${t}.csv`, status: fileStatus, reviewed: false, disabled: rand() < 0.05 });
        }
    if (rand() < 0.3)
      fund.files.push({ kind: 'work_paper', fileType: 'work_paper', fileName: 'wp.xlsx', status: 'done', reviewed: rand() < 0.5, disabled: false });
    if (rand() < 0.5) {
      const stage = pick(STAGES);
      fund.processes.push({ stage, status: pick(PSTATUS) });
    }
    yield fund;
  }
}

/** The sequential queries of the SQLite listing benchmark; the last is the filter + sort + search the loads vary. */
export const QUERIES: Array<{ name: string; input: ListingInput }> = [
  { name: 'default page (request date desc)', input: {} },
  { name: 'filter: status in (Open, Pending)', input: { filters: [{ field: 'status', type: 'enum', value: ['Approved', 'Pending'] }] } },
  {
    name: 'sort: client asc, name desc',
    input: {
      sorting: [
        { field: 'client', order: 'asc' },
        { field: 'name', order: 'desc' },
      ],
    },
  },
  { name: 'search: "alt0123"', input: { search: 'alt0123' } },
  {
    name: 'filter + sort + search',
    input: {
      filters: [
        { field: 'status', type: 'enum', value: ['Approved'] },
        { field: 'dataDue', type: 'date', value: { from: '2023-06-01', to: '2024-06-30' } },
      ],
      sorting: [{ field: 'dataDue', order: 'desc' }],
      search: 'equity',
    },
  },
];

/** The filter + sort + search of the loads: status Open, a data-due range, sorted by data due. */
export const FILTER_SORT_SEARCH = QUERIES[QUERIES.length - 1].input;

/**
 * Filter + sort + search bodies with search texts `<word> <n>` for the given numbers (each text its
 * own query). The search ignores case, so `Fund 7` finds what `fund 7` finds, under another cache key.
 */
export const searchBodies = (numbers: number[], word = 'fund'): string[] =>
  numbers.map((n) => JSON.stringify({ ...FILTER_SORT_SEARCH, search: `${word} ${n}` }));

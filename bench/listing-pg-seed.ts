/**
 * Writes the generated fund requests of `listing-data.ts` into a migrated PostgreSQL database:
 * 40 administrators, then funds with their codes, input files, work papers and processes, a few
 * thousand funds a statement (`INSERT ... SELECT FROM unnest(<one array a column>)`), the next
 * batch generated while the previous one is written; then `VACUUM ANALYZE`.
 */
import pg from 'pg';
import { ADMINISTRATORS, FUND_COLUMNS, fundValues, generateFunds, type GeneratedFund } from './listing-data.js';

const BATCH = 5000;

/** The columns of one batch, one array each. */
function columns(funds: GeneratedFund[], base: number, admins: number[]) {
  const c = {
    fund: [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [], []] as unknown[][],
    code: [[], [], []] as unknown[][],
    file: [[], [], [], [], [], [], []] as unknown[][],
    proc: [[], [], []] as unknown[][],
  };
  for (const f of funds) {
    const id = base + f.n;
    const row = [id, ...fundValues(f, admins[f.administrator], f.parent === null ? null : base + f.parent)];
    row.forEach((v, i) => c.fund[i].push(v));
    for (const [code, main] of f.codes) [id, code, main].forEach((v, i) => c.code[i].push(v));
    for (const x of f.files) [id, x.kind, x.fileType, x.fileName, x.status, x.reviewed, x.disabled].forEach((v, i) => c.file[i].push(v));
    for (const p of f.processes) [id, p.stage, p.status].forEach((v, i) => c.proc[i].push(v));
  }
  return c;
}

const FUND_SQL = `INSERT INTO fund_requests (id, ${FUND_COLUMNS})
  SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[],
    $12::float8[], $13::float8[], $14::float8[], $15::text[], $16::int[])`;
const CODE_SQL = 'INSERT INTO fund_codes (fund_request_id, code, main) SELECT * FROM unnest($1::int[], $2::text[], $3::bool[])';
const FILE_SQL = `INSERT INTO fund_files (fund_request_id, kind, file_type, file_name, status, reviewed, disabled)
  SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::bool[])`;
const PROC_SQL = 'INSERT INTO processes (fund_request_id, stage, status) SELECT * FROM unnest($1::int[], $2::text[], $3::text[])';

/**
 * Adds `count` generated funds (ids after the existing ones) to the database at `url`.
 * @returns how many funds the listing holds afterwards (every fund request) and the seconds taken
 */
export async function seedPg(url: string, count: number, progress?: (done: number) => void): Promise<{ total: number; seconds: number }> {
  const started = performance.now();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const admins: number[] = [];
    for (let i = 0; i < ADMINISTRATORS; i++)
      admins.push(
        (await pool.query<{ id: number }>('INSERT INTO administrators (code, name) VALUES ($1, $2) RETURNING id', [`tpa_bench_${i}`, `Administrator ${i}`]))
          .rows[0].id,
      );
    const base = Number((await pool.query<{ m: number }>('SELECT coalesce(max(id), 0) AS m FROM fund_requests')).rows[0].m);
    const write = async (c: ReturnType<typeof columns>) => {
      await pool.query(FUND_SQL, c.fund);
      await Promise.all([pool.query(CODE_SQL, c.code), pool.query(FILE_SQL, c.file), pool.query(PROC_SQL, c.proc)]);
    };
    let inFlight: Promise<void> = Promise.resolve();
    let batch: GeneratedFund[] = [];
    for (const f of generateFunds(count)) {
      batch.push(f);
      if (batch.length === BATCH || f.n === count) {
        const c = columns(batch, base, admins);
        batch = [];
        await inFlight;
        inFlight = write(c);
        if (progress && f.n % 100_000 === 0) progress(f.n);
      }
    }
    await inFlight;
    // ids were given: the identity goes on after them
    await pool.query(`SELECT setval(pg_get_serial_sequence('fund_requests', 'id'), (SELECT max(id) FROM fund_requests))`);
    await pool.query('VACUUM ANALYZE');
    const total = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM fund_requests')).rows[0].n);
    return { total, seconds: (performance.now() - started) / 1000 };
  } finally {
    await pool.end();
  }
}

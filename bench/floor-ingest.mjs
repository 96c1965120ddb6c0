// The ingestion part of the throughput benchmark's floor (bench/throughput.bench.ts): a bare
// csv-parse + better-sqlite3 insert of a Meridian holdings delivery, the least a Node program
// that stores the delivered rows can do. Streams the file through csv-parse (semicolons, the
// header on line 4), inserts each record as JSON with its line in one transaction (WAL), and
// prints the row count. Plain JavaScript, run by `node` itself, so no compiler is timed with it.
//   node bench/floor-ingest.mjs HOLDINGS.csv DB.sqlite
import { createReadStream } from 'node:fs';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';

const [input, dbPath] = process.argv.slice(2);
const db = new Database(dbPath);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, line INTEGER, data TEXT)');
const insert = db.prepare('INSERT INTO rows (line, data) VALUES (?, ?)');
let rows = 0;
db.exec('BEGIN');
const parser = createReadStream(input).pipe(parse({ delimiter: ';', from_line: 4, columns: true, info: true }));
parser.on('readable', () => {
  let r = parser.read();
  while (r !== null) {
    insert.run(r.info.lines, JSON.stringify(r.record));
    rows++;
    r = parser.read();
  }
});
await new Promise((resolve, reject) => {
  parser.on('end', resolve);
  parser.on('error', reject);
});
db.exec('COMMIT');
db.close();
console.log(rows);

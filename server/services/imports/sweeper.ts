/**
 * The watched drop folder (the spec's MOVEit sweeper, DOMAIN.md 2.1): files put in
 * `<inbox>/<tpa code>/` are imported for that TPA, recorded as swept files, and moved to
 * `<inbox>/<tpa code>/.swept/` so they are never imported twice. A file is taken only once its size
 * has stayed the same between two sweeps (still being written otherwise).
 *
 * Dialect-neutral: runs on SQLite and PostgreSQL (storeOf, transaction; docs/decisions/0011).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { count, desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { storeOf } from '../../db/dialect.js';
import { serviceOn } from '../../queue/services.js';
import { importFile } from './imports.js';

/** The inbox folder of a context. */
export const inboxDir = (ctx: AppContext) => ctx.config.inboxDir ?? join(ctx.config.dataDir, 'inbox');

export class Sweeper {
  private readonly seen = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AppContext) {}

  /** Creates one folder per administrator so users know where to drop files. */
  async prepareFolders(): Promise<void> {
    const { db, tables: t } = storeOf(this.ctx);
    for (const a of await db.select().from(t.administrators)) mkdirSync(join(inboxDir(this.ctx), a.code), { recursive: true });
  }

  /** Sweeps once; returns the import ids created. */
  async sweep(opts: { requireStable?: boolean } = { requireStable: true }): Promise<number[]> {
    const root = inboxDir(this.ctx);
    if (!existsSync(root)) return [];
    const imported: number[] = [];
    const { db, tables: t } = storeOf(this.ctx);
    for (const admin of await db.select().from(t.administrators)) {
      const dir = join(root, admin.code);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        const file = join(dir, name);
        const stat = statSync(file);
        if (!stat.isFile()) continue;
        const previous = this.seen.get(file);
        this.seen.set(file, stat.size);
        if (opts.requireStable !== false && previous !== stat.size) continue;
        try {
          const view = await importFile(this.ctx, { administratorCode: admin.code, fileName: name, path: file, userId: null, source: 'sweeper' });
          await db.insert(t.sweptFiles).values({
            originalFileName: name,
            administratorId: admin.id,
            importFileId: view.id,
            filePathOnMoveit: file,
            fileUploadDate: stat.mtime.toISOString(),
            fileUploaderRealName: null,
            fileUploaderEmail: null,
          });
          imported.push(view.id);
        } catch (err) {
          this.ctx.log.error({ err, file }, 'could not import a dropped file');
        }
        const done = join(dir, '.swept');
        mkdirSync(done, { recursive: true });
        renameSync(file, join(done, `${Date.now()}-${name}`));
        this.seen.delete(file);
      }
    }
    return imported;
  }

  start(): void {
    this.prepareFolders().catch((err) => this.ctx.log.error({ err }, 'the inbox folders could not be prepared'));
    let sweeping = false;
    this.timer = setInterval(() => {
      // one sweep at a time: a slow sweep (large files) is not overtaken by the next tick
      if (sweeping) return;
      sweeping = true;
      serviceOn(this.ctx, 'sweeper')
        .then(async (on) => {
          if (on && this.timer) await this.sweep();
        })
        .catch((err) => this.ctx.log.error({ err }, 'the inbox sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, this.ctx.config.inboxPollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Swept files newest first (spec: `POST /files/sweeper/logs/list`). */
export async function listSweptFiles(ctx: AppContext, input: { offset?: number; limit?: number } = {}) {
  const offset = input.offset ?? 0;
  const limit = Math.min(input.limit ?? 200, 1000);
  const { db, tables: t } = storeOf(ctx);
  const rows = await db
    .select({ s: t.sweptFiles, a: t.administrators })
    .from(t.sweptFiles)
    .leftJoin(t.administrators, eq(t.sweptFiles.administratorId, t.administrators.id))
    .orderBy(desc(t.sweptFiles.fileDownloadDate), desc(t.sweptFiles.id))
    .limit(limit)
    .offset(offset);
  const [total] = await db.select({ n: count() }).from(t.sweptFiles);
  return {
    rows: rows.map(({ s, a }) => ({
      id: s.id,
      original_file_name: s.originalFileName,
      tpa_id: s.administratorId,
      tpa: a?.name ?? null,
      import_file_id: s.importFileId,
      file_uploader_real_name: s.fileUploaderRealName,
      file_uploader_email: s.fileUploaderEmail,
      file_path_on_moveit: s.filePathOnMoveit,
      file_upload_date: s.fileUploadDate,
      file_download_date: s.fileDownloadDate,
    })),
    pagination: { offset, limit, count: total?.n ?? 0 },
  };
}

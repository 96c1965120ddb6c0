/**
 * The watched drop folder (the spec's MOVEit sweeper, DOMAIN.md 2.1): files put in
 * `<inbox>/<tpa code>/` are imported for that TPA, recorded as swept files, and moved to
 * `<inbox>/<tpa code>/.swept/` so they are never imported twice. A file is taken only once its size
 * has stayed the same between two sweeps (still being written otherwise).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { administrators, sweptFiles } from '../../db/schema/index.js';
import { serviceOn } from '../settings/services.js';
import { importFile } from './imports.js';

/** The inbox folder of a context. */
export const inboxDir = (ctx: AppContext) => ctx.config.inboxDir ?? join(ctx.config.dataDir, 'inbox');

export class Sweeper {
  private readonly seen = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: AppContext) {}

  /** Creates one folder per administrator so users know where to drop files. */
  prepareFolders(): void {
    for (const a of this.ctx.db.select().from(administrators).all()) mkdirSync(join(inboxDir(this.ctx), a.code), { recursive: true });
  }

  /** Sweeps once; returns the import ids created. */
  sweep(opts: { requireStable?: boolean } = { requireStable: true }): number[] {
    const root = inboxDir(this.ctx);
    if (!existsSync(root)) return [];
    const imported: number[] = [];
    for (const admin of this.ctx.db.select().from(administrators).all()) {
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
          const view = importFile(this.ctx, { administratorCode: admin.code, fileName: name, path: file, userId: null, source: 'sweeper' });
          this.ctx.db
            .insert(sweptFiles)
            .values({
              originalFileName: name,
              administratorId: admin.id,
              importFileId: view.id,
              filePathOnMoveit: file,
              fileUploadDate: stat.mtime.toISOString(),
              fileUploaderRealName: null,
              fileUploaderEmail: null,
            })
            .run();
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
    this.prepareFolders();
    this.timer = setInterval(() => {
      serviceOn(this.ctx, 'sweeper')
        .then((on) => {
          if (on && this.timer) this.sweep();
        })
        .catch((err) => this.ctx.log.error({ err }, 'the inbox sweep failed'));
    }, this.ctx.config.inboxPollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Swept files newest first (spec: `POST /files/sweeper/logs/list`). */
export function listSweptFiles(ctx: AppContext, input: { offset?: number; limit?: number } = {}) {
  const offset = input.offset ?? 0;
  const limit = Math.min(input.limit ?? 200, 1000);
  const rows = ctx.db
    .select({ s: sweptFiles, a: administrators })
    .from(sweptFiles)
    .leftJoin(administrators, eq(sweptFiles.administratorId, administrators.id))
    .orderBy(desc(sweptFiles.fileDownloadDate), desc(sweptFiles.id))
    .all();
  return {
    rows: rows.slice(offset, offset + limit).map(({ s, a }) => ({
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
    pagination: { offset, limit, count: rows.length },
  };
}

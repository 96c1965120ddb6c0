/**
 * Developer logs (delivery spec "Developer tools": log files to download and a tail viewer;
 * section 7 `POST /logs/list`, `POST /logs/last-lines {count, file}` (default 100),
 * `GET logs/download/?file&token`): the files of `<data dir>/logs`.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { DEFAULT_TAIL_LINES, lastLines, listLogFiles, MAX_TAIL_LINES, openLogFile } from '../../services/dev-tools/logs.js';
import { defineRoute } from '../route.js';
import { logFilesSchema, logTailSchema } from '../schemas/dev-tools.js';

export const devLogRoutes = [
  defineRoute({
    method: 'POST',
    path: '/logs/list',
    group: 'devTools',
    tag: 'dev-tools',
    summary: 'The log files, most recently written first -> [{file, size, modified}]',
    response: logFilesSchema,
    handler: ({ ctx }) => listLogFiles(ctx),
  }),
  defineRoute({
    method: 'POST',
    path: '/logs/last-lines',
    group: 'devTools',
    tag: 'dev-tools',
    body: z.object({ file: z.string().min(1, 'Choose a log file'), count: z.coerce.number().int().min(1).max(MAX_TAIL_LINES).optional() }),
    summary: `The last lines of a log file {file, count? (default ${DEFAULT_TAIL_LINES}, at most ${MAX_TAIL_LINES})}, oldest first -> {file, count, lines, truncated, size}; 404 'No log file named {file}'`,
    response: logTailSchema,
    handler: ({ ctx, body }) => lastLines(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/logs/download',
    group: 'devTools',
    tag: 'dev-tools',
    tokenFrom: 'query',
    raw: true,
    query: z.object({ file: z.string().min(1, 'Give the log file to download'), token: z.string() }),
    summary: 'Download a log file ?file=&token= (token from GET /export/token)',
    handler: ({ ctx, query }) => {
      const log = openLogFile(ctx, query.file);
      return new Response(Readable.toWeb(log.open()) as ReadableStream<Uint8Array>, {
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'content-disposition': `attachment; filename="${log.fileName.replace(/"/g, '')}"`,
        },
      });
    },
  }),
];

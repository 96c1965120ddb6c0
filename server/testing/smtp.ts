/**
 * A real SMTP server for tests (`smtp-server`), whose mails are parsed by `mailparser`: tests send
 * through the product's outbox to it and read what arrived. `refuse` makes it answer a temporary
 * failure (451) to every message until it is set back. Not used by the application.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { onFreePort } from './idp.js';

export interface TestSmtp {
  url: string;
  mails: ParsedMail[];
  /** Messages refused so far. */
  refused: number;
  /** While true, every message is refused with 451. */
  refuse: boolean;
  close(): Promise<void>;
}

/** Starts a test SMTP server on a free port of 127.0.0.1 (no TLS, any login accepted). */
export async function startTestSmtp(): Promise<TestSmtp> {
  const state: TestSmtp = { url: '', mails: [], refused: 0, refuse: false, close: async () => {} };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.refuse) {
          state.refused++;
          const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(err);
          return;
        }
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            state.mails.push(mail);
            callback();
          })
          .catch(callback);
      });
    },
  });
  const port = await onFreePort(
    (p) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(p, '127.0.0.1', () => resolve(p));
      }),
  );
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from './logger.ts';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

/**
 * Sends mail over SMTP when SMTP_URL is set; otherwise writes each message as an .eml file into
 * the outbox folder, which the operator reads with `npm run outbox`. A message is never dropped:
 * when SMTP refuses it, it is kept in outbox/failed and the error reaches the caller.
 */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<{ id: string }>;
  close(): void;
}

export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  dataDir: string;
  logger?: Logger;
}): Mailer {
  const outbox = join(options.dataDir, 'outbox');
  // nodemailer is loaded, and its transports made, with the first message: a start spends nothing on it.
  const nodemailer = lazy(() => import('nodemailer').then((loaded) => loaded.default));
  const renderer = lazy(async () =>
    (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );

  async function keep(folder: string, message: MailMessage): Promise<string> {
    const info = await (await renderer()).sendMail({ from: options.from, ...message });
    const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeFile(join(folder, `${id}.eml`), info.message as Buffer, { mode: 0o600 });
    return id;
  }

  if (!options.smtpUrl) {
    return {
      kind: 'outbox',
      async send(message) {
        const id = await keep(outbox, message);
        options.logger?.info({ id, outbox }, 'mail written to the local outbox');
        return { id };
      },
      close() {
        renderer.made?.close();
      },
    };
  }
  const smtpUrl = options.smtpUrl;
  const smtp = lazy(async () => (await nodemailer()).createTransport(smtpUrl));
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = await (await smtp()).sendMail({ from: options.from, ...message });
        return { id: String(info.messageId) };
      } catch (error) {
        const id = await keep(join(outbox, 'failed'), message);
        options.logger?.error({ err: error, id }, 'SMTP refused a message; kept in outbox/failed');
        throw error;
      }
    },
    close() {
      smtp.made?.close();
      renderer.made?.close();
    },
  };
}

/** A value made on first use (once, even when asked twice at once); `made` once it is there. */
function lazy<T>(make: () => Promise<T>): (() => Promise<T>) & { made?: T } {
  let making: Promise<T> | undefined;
  const get = (() => {
    making ??= make().then((value) => {
      get.made = value;
      return value;
    });
    return making;
  }) as (() => Promise<T>) & { made?: T };
  return get;
}

/** The messages in the outbox, newest first, for the operator's command. */
export async function listOutbox(dataDir: string, limit = 20): Promise<{ id: string; eml: string }[]> {
  const folder = join(dataDir, 'outbox');
  const names = (await readdir(folder).catch(() => []))
    .filter((n) => n.endsWith('.eml'))
    .sort()
    .reverse();
  return Promise.all(
    names
      .slice(0, limit)
      .map(async (name) => ({ id: name.slice(0, -4), eml: await readFile(join(folder, name), 'utf8') })),
  );
}

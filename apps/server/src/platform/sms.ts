import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from './logger.ts';

/** One text message: the number in E.164 (`+447700900123`) and the text. */
export type SmsMessage = { to: string; text: string };

/**
 * Sends SMS through an HTTP gateway when SMS_URL is set; otherwise writes each message as a JSON
 * file into DATA_DIR/sms-outbox, which the operator reads with `npm run sms-outbox`. A message is
 * never dropped: when the gateway refuses it (or cannot be reached), it is kept in
 * sms-outbox/failed and the error reaches the caller.
 */
export interface SmsSender {
  readonly kind: 'http' | 'outbox';
  send(message: SmsMessage): Promise<{ id: string }>;
  close(): void;
}

/** What an outbox file holds. */
export type StoredSms = SmsMessage & { id: string; createdAt: string; error?: string };

const SEND_TIMEOUT_MS = 10_000;

type SmsOptions = {
  /** A generic gateway: POST JSON {to, text}; any 2xx is accepted. */
  url?: string | undefined;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string | undefined;
  dataDir: string;
  logger?: Logger | undefined;
  timeoutMs?: number;
};

export function createSmsSender(options: SmsOptions): SmsSender {
  const outbox = join(options.dataDir, 'sms-outbox');
  const url = options.url;
  if (url) return httpSender(url, options, outbox);
  return {
    kind: 'outbox',
    async send(message) {
      const id = await keep(outbox, message);
      options.logger?.info({ id, outbox }, 'SMS written to the local outbox');
      return { id };
    },
    close() {},
  };
}

/** Writes a message as a JSON file into a folder of the outbox; answers its id. */
async function keep(folder: string, message: SmsMessage, error?: string): Promise<string> {
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const stored: StoredSms = {
    id,
    to: message.to,
    text: message.text,
    createdAt: new Date().toISOString(),
    ...(error ? { error } : {}),
  };
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, `${id}.json`), `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  return id;
}

/** The gateway's message id from its answer, else one of our own. */
function messageId(answer: string): string {
  let id = '';
  try {
    const parsed = JSON.parse(answer) as { id?: unknown; messageId?: unknown };
    id = String(parsed.id ?? parsed.messageId ?? '');
  } catch {
    id = '';
  }
  return id || randomBytes(8).toString('hex');
}

/** Sends through the HTTP gateway; a refused message is kept in sms-outbox/failed and the error thrown. */
function httpSender(url: string, options: SmsOptions, outbox: string): SmsSender {
  const controllers = new Set<AbortController>();
  return {
    kind: 'http',
    async send(message) {
      const controller = new AbortController();
      controllers.add(controller);
      const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? SEND_TIMEOUT_MS);
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body: JSON.stringify({ to: message.to, text: message.text }),
          signal: controller.signal,
          redirect: 'error',
        });
        const answer = await response.text().catch(() => '');
        if (!response.ok) throw new Error(`SMS gateway answered HTTP ${response.status}`);
        return { id: messageId(answer) };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const id = await keep(join(outbox, 'failed'), message, reason);
        options.logger?.error(
          { err: error, id },
          'the SMS gateway refused a message; kept in sms-outbox/failed',
        );
        throw error;
      } finally {
        clearTimeout(timer);
        controllers.delete(controller);
      }
    },
    close() {
      for (const controller of controllers) controller.abort();
    },
  };
}

/** The messages in the SMS outbox (or its `failed` folder), newest first, for the operator. */
export async function listSmsOutbox(
  dataDir: string,
  options: { limit?: number; failed?: boolean } = {},
): Promise<StoredSms[]> {
  const folder = join(dataDir, 'sms-outbox', ...(options.failed ? ['failed'] : []));
  const names = (await readdir(folder).catch(() => []))
    .filter((n) => n.endsWith('.json'))
    .sort()
    .reverse()
    .slice(0, options.limit ?? 20);
  return Promise.all(
    names.map(async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as StoredSms),
  );
}

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type OutboxSms = { id: string; to: string; text: string; createdAt: string; error?: string };

/** Every SMS in a server's outbox folder (DATA_DIR/sms-outbox, or its `failed` folder), oldest first. */
export async function smsOutbox(dataDir: string, failed = false): Promise<OutboxSms[]> {
  const folder = join(dataDir, 'sms-outbox', ...(failed ? ['failed'] : []));
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as OutboxSms),
  );
}

/** The newest 6-digit code sent by SMS to a number (E.164), read from the outbox file. */
export async function smsCodeFor(dataDir: string, to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const sms = (await smsOutbox(dataDir)).reverse().find((m) => m.to === to);
    const code = sms ? /\b(\d{6})\b/.exec(sms.text)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no SMS sent to ${to}`);
}

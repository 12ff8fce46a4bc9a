import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../../../tests/support/db.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from './ledger.service.ts';

/** On PostgreSQL: a ledger process killed with SIGKILL mid-load loses no entry it acknowledged. */
describe('crash safety on PostgreSQL', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase({ migrated: false, kind: 'postgres' });
  });
  afterAll(() => t.close());

  it('keeps every acknowledged entry after SIGKILL, and the books still balance', async () => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../../../../../tests/support/ledger-load.ts'), t.url ?? ''],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const acked = new Map<string, number>();
    let buffer = '';
    await new Promise<void>((resolve, reject) => {
      child.on('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error(`load exited early: ${code}`)),
      );
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          const [word, id, key] = line.split(' ');
          if (word === 'ack' && id && key) acked.set(key, Number(id));
        }
        if (acked.size >= 1500 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      });
    });
    expect(acked.size).toBeGreaterThanOrEqual(1500);
    const rows = await t.db.query<{ idempotency_key: string; id: string }>(
      'SELECT idempotency_key, id FROM ledger_entries WHERE idempotency_key = ANY($1::text[])',
      [[...acked.keys()]],
    );
    const stored = new Map(rows.map((r) => [r.idempotency_key, Number(r.id)]));
    const lost = [...acked].filter(([key, id]) => stored.get(key) !== id);
    expect(lost).toEqual([]);
    const ledger = new LedgerService(t.db, new AuditService(t.db));
    expect(await ledger.invariants()).toEqual({ unbalanced: [], negativeCustomers: [] });
    expect(await ledger.reconcile()).toEqual([]);
    expect((await new AuditService(t.db).verify()).ok).toBe(true);
  });
});

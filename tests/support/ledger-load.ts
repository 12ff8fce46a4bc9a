// A ledger process under load, for the crash test: it moves money between customer wallets from
// 16 concurrent callers and prints "ack <entryId> <key>" the moment each transfer is acknowledged.
// Usage: node tests/support/ledger-load.ts <DATABASE_URL>

import { AuditService } from '../../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../../apps/server/src/modules/ledger/ledger.service.ts';
import { openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrate } from '../../apps/server/src/platform/migrate.ts';

const url = process.argv[2];
if (!url) throw new Error('usage: ledger-load.ts <DATABASE_URL>');
const db = await openPostgres(url);
await migrate(db);
const ledger = new LedgerService(db, new AuditService(db));
await ledger.ensureSystemAccounts();
const users = Array.from({ length: 20 }, (_, i) => 9000 + i);
for (const u of users) await ledger.openCustomerBooks(u);
const wallets = await Promise.all(users.map((u) => ledger.walletAccount('demo', u, 'USDT')));
process.stdout.write('ready\n');
let n = 0;
async function caller(c: number): Promise<never> {
  for (;;) {
    const i = n++;
    const from = wallets[(i * 7 + c) % wallets.length] as number;
    const to = wallets[(i * 11 + c + 1) % wallets.length] as number;
    if (from === to) continue;
    const key = `crash-${process.pid}-${i}`;
    const result = await ledger.transfer({
      book: 'demo',
      kind: 'transfer',
      idempotencyKey: key,
      actor: 'load',
      postings: [
        { accountId: from, amount: -1000n },
        { accountId: to, amount: 1000n },
      ],
    });
    process.stdout.write(`ack ${result.entryId} ${key}\n`);
  }
}
await Promise.all(Array.from({ length: 16 }, (_, c) => caller(c)));

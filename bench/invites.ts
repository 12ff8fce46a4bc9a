// The invite programme's daily reward run for N friends (default 100,000, ten per inviter) on
// PostgreSQL, through the real path: InvitesService.runDaily on an injected clock. First the day's
// accrual (the ledger's fees of the day read per friend, a reward row each, on hold), then, the
// hold over, the payout (one `referral` entry per inviter and day through the ledger's batcher,
// its rewards marked paid and the inviter told in the entry's transaction). Beside it, in the same
// run, one day's earn settlement of N investments (bench/earn-day.ts) on its own database.
// Usage: node bench/invites.ts [friends, default 100000]
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { CustomerDirectory } from '../apps/server/src/modules/identity/identity.customers.ts';
import { InvitesService } from '../apps/server/src/modules/invites/invites.service.ts';
import { newInviteCode } from '../apps/server/src/modules/invites/invites.shared.ts';
import { KycService } from '../apps/server/src/modules/kyc/kyc.service.ts';
import { LedgerFacts } from '../apps/server/src/modules/ledger/ledger.facts.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { NoticesService } from '../apps/server/src/modules/notices/notices.service.ts';
import { ParamsService } from '../apps/server/src/modules/params/params.service.ts';
import { UploadsService } from '../apps/server/src/modules/uploads/uploads.service.ts';
import { depositAddressesOfOwners } from '../apps/server/src/modules/wallet/wallet.deposits.repository.ts';
import { addressesOfOwners } from '../apps/server/src/modules/wallet/wallet.withdrawals.repository.ts';
import type { Database } from '../apps/server/src/platform/db.ts';
import { FileStorage } from '../apps/server/src/platform/storage.ts';
import { benchDatabase, earnSettlementDay } from './earn-day.ts';

const N = Number(process.argv[2] ?? 100_000);
const INVITERS = Math.max(1, Math.floor(N / 10));
const DAY = '2027-06-01';
const DAY_MS = 86_400_000;

/**
 * Not timed: INVITERS inviters with a code (5 % given back), N friends linked ten to an inviter,
 * registered 10 days before DAY and qualified 5 days before; each friend's live deposit, and on
 * DAY one trade whose fee went to the live fees account, written as the ledger writes them.
 */
async function setup(db: Database, ledger: LedgerService): Promise<void> {
  await ledger.ensureSystemAccounts();
  await db.query(
    `INSERT INTO users (user_name, password_hash)
     SELECT 'inviter' || g || '@bench.test', '$argon2id$bench' FROM generate_series(1, $1) g
     UNION ALL SELECT 'friend' || g || '@bench.test', '$argon2id$bench' FROM generate_series(1, $2) g`,
    [INVITERS, N],
  );
  const inviters = await db.query<{ id: string }>(
    "SELECT id FROM users WHERE user_name LIKE 'inviter%' ORDER BY id",
  );
  const codes = new Set<string>();
  while (codes.size < inviters.length) codes.add(newInviteCode());
  await db.query(
    `INSERT INTO invite_codes (user_id, code, rebate_bps, created_at)
     SELECT u, c, 500, $3 FROM unnest($1::bigint[], $2::text[]) AS x(u, c)`,
    [inviters.map((r) => r.id), [...codes], `${DAY}T00:00:00Z`],
  );
  await db.query(
    `INSERT INTO invite_links (inviter_id, friend_id, registered_at, qualified_on, identity_checked)
     SELECT i.id, f.id, $2::date - 10, $2::date - 5, true
     FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM users WHERE user_name LIKE 'friend%') f
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM users WHERE user_name LIKE 'inviter%') i
       ON i.n = f.n % $1`,
    [INVITERS, DAY],
  );
  await db.query(
    `INSERT INTO ledger_accounts (book, owner_id, asset, kind, allow_negative)
     SELECT 'live', id, 'USDT', 'wallet', false FROM users`,
  );
  await db.query('ANALYZE');
  const clearing = await ledger.systemAccount('live', 'USDT', 'external_clearing');
  const fees = await ledger.systemAccount('live', 'USDT', 'fees');
  await entries(db, 'deposit', `${DAY}T00:00:00Z`, -5, clearing, '1000000000');
  // A trade on DAY and one on DAY + 7: the run of DAY + 8 accrues a full day and pays DAY's.
  for (const days of [0, 7])
    await entries(
      db,
      'trade_margin',
      `${DAY}T12:00:00Z`,
      days,
      fees,
      '-(1000000 + (f.user_id % 1000) * 1000)',
    );
  await db.query(
    `UPDATE ledger_accounts a SET balance = s.total
     FROM (SELECT account_id, sum(amount) AS total FROM ledger_postings GROUP BY account_id) s WHERE a.id = s.account_id`,
  );
  await db.query('ANALYZE');
}

/** One entry per friend of `kind` at `at` + `days`: `other` credited −amount, the friend's wallet +amount. */
async function entries(db: Database, kind: string, at: string, days: number, other: number, amount: string) {
  await db.transaction(async (tx) => {
    // Each friend's entry id taken first, so entries and postings are written without a join.
    await tx.query(
      `CREATE TEMP TABLE bench_friends ON COMMIT DROP AS
       SELECT u.id AS user_id, a.id AS account_id, nextval('ledger_entries_id_seq') AS entry_id FROM users u
       JOIN ledger_accounts a ON a.owner_id = u.id AND a.book = 'live' AND a.asset = 'USDT' AND a.kind = 'wallet'
       WHERE u.user_name LIKE 'friend%'`,
    );
    await tx.query(
      `INSERT INTO ledger_entries (id, book, kind, idempotency_key, request_hash, actor, created_at)
       SELECT entry_id, 'live', $1, 'bench-' || $1 || ':' || $3::int || ':' || user_id, 'bench', 'bench',
         $2::timestamptz + make_interval(days => $3::int)
       FROM bench_friends`,
      [kind, at, days],
    );
    await tx.query(
      `INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount)
       SELECT f.entry_id, x.account_id, 'live', 'USDT', x.amount FROM bench_friends f
       CROSS JOIN LATERAL (VALUES (f.account_id, (${amount})::numeric), ($1::bigint, -(${amount})::numeric)) x(account_id, amount)`,
      [other],
    );
  });
}

function invitesOn(db: Database, ledger: LedgerService, audit: AuditService, clock: { now: number }) {
  const customers = new CustomerDirectory(db);
  const uploads = new UploadsService({ db, storage: new FileStorage('/tmp/swx-bench-invites') });
  return new InvitesService({
    db,
    ledger,
    facts: new LedgerFacts(db),
    kyc: new KycService({ db, uploads, audit, customers }),
    params: new ParamsService(db),
    audit,
    notices: new NoticesService(db, () => clock.now),
    customers,
    // The wallet's port as the module wires it: withdrawal addresses, deposit senders, deposit addresses.
    addresses: async (ids) => {
      const [named, deposited] = await Promise.all([
        addressesOfOwners(db, ids),
        depositAddressesOfOwners(db, ids),
      ]);
      return new Map(
        ids.map((id) => [
          id,
          {
            withdrawal: named.get(id) ?? [],
            depositSources: deposited.get(id)?.sources ?? [],
            deposit: deposited.get(id)?.own ?? [],
          },
        ]),
      );
    },
    usdtPrice: (asset) => (asset === 'USDT' ? '1' : null),
    now: () => clock.now,
  });
}

const invitesDb = await benchDatabase('invites');
let accrualMs = 0;
let payoutMs = 0;
try {
  const { db } = invitesDb;
  const audit = new AuditService(db);
  const ledger = new LedgerService(db, audit);
  const clock = { now: Date.parse(`${DAY}T00:05:00Z`) };
  const invites = invitesOn(db, ledger, audit, clock);
  const t0 = performance.now();
  await setup(db, ledger);
  console.log(
    `setup: ${N.toLocaleString('en')} friends of ${INVITERS.toLocaleString('en')} inviters in ${Math.round(performance.now() - t0)} ms`,
  );

  // The first day: an accrual only.
  clock.now += DAY_MS;
  const a0 = performance.now();
  if ((await invites.runDaily(invites.dueDay())).length > 0) throw new Error('accrual refused');
  accrualMs = performance.now() - a0;
  for (let d = 2; d <= 7; d++) {
    clock.now += DAY_MS;
    await invites.runDaily(invites.dueDay());
  }
  // A day in the steady state: DAY + 7 accrued, DAY's rewards paid after their hold.
  clock.now += DAY_MS;
  const p0 = performance.now();
  if ((await invites.runDaily(invites.dueDay())).length > 0) throw new Error('payout unfunded');
  payoutMs = performance.now() - p0;
  const paid = await db.query<{ n: string; entries: string }>(
    "SELECT count(*)::text AS n, count(DISTINCT entry_id)::text AS entries FROM invite_rewards WHERE state = 'paid'",
  );
  if (paid[0]?.n !== String(N) || paid[0]?.entries !== String(INVITERS))
    throw new Error(
      `paid ${paid[0]?.n} rewards in ${paid[0]?.entries} entries, expected ${N} in ${INVITERS}`,
    );
} finally {
  await invitesDb.drop();
}

const earnDb = await benchDatabase('invites_earn');
try {
  const { settleMs } = await earnSettlementDay(earnDb.db, N);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log('');
  console.log(`the daily invite reward run for ${N.toLocaleString('en')} friends on PostgreSQL`);
  console.log(`  first day, accrual only (${N.toLocaleString('en')} rewards on hold): ${s(accrualMs)}`);
  console.log(
    `  a day in the steady state (${N.toLocaleString('en')} rewards accrued, ${INVITERS.toLocaleString('en')} referral entries paid): ${s(payoutMs)}`,
  );
  console.log(`  earn settlement of ${N.toLocaleString('en')} investments, same run: ${s(settleMs)}`);
} finally {
  await earnDb.drop();
}

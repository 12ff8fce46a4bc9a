// Charity NFT auctions through the real path (NftService: quote then commit, a ledger hold per bid
// judged in the ledger's batch under the drop's lock; settlement through the ledger's batcher):
// 1. bids per second on ONE hot auction at 64 and 256 clients, beside the ledger's hot-account
//    figure measured in the same run on the same database (transfers between 2 hot accounts);
// 2. the time to close N ended auctions (default 10,000), each with a held winning bid: one entry
//    per sale (buyer → charity), the holding written in the entry's transaction.
// Usage: node bench/nft.ts [seconds per run, default 3] [auctions, default 10000] [postgres|pglite]
//        (PostgreSQL: TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres; the bench
//        creates and drops its own database. PGlite: on disk in a temporary folder.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '../apps/server/src/modules/audit/audit.service.ts';
import { LedgerService } from '../apps/server/src/modules/ledger/ledger.service.ts';
import { DonationLog } from '../apps/server/src/modules/nft/log/log.service.ts';
import { insertCharity, insertDrop, markMinted } from '../apps/server/src/modules/nft/nft.repository.ts';
import { donationsOf, NftService } from '../apps/server/src/modules/nft/nft.service.ts';
import { NoticesService } from '../apps/server/src/modules/notices/notices.service.ts';
import { type Database, openPglite } from '../apps/server/src/platform/db.ts';
import { KeyRing } from '../apps/server/src/platform/keys.ts';
import { migrate } from '../apps/server/src/platform/migrate.ts';
import { benchDatabase } from './earn-day.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const AUCTIONS = Number(process.argv[3] ?? 10_000);
const WHERE = process.argv[4] ?? 'postgres';
const CLIENTS = [64, 256];
const USDT = 1_000_000n;
const clock = { now: Date.parse('2027-06-01T12:00:00Z') };

async function measure(clients: number, op: (client: number) => Promise<unknown>) {
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < end) {
        await op(c);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - t0) / 1000);
}

/** Not timed: `n` customers (rows as registration writes them) with live USDT deposited through the ledger. */
async function customers(db: Database, ledger: LedgerService, n: number, tag: string): Promise<number[]> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO users (user_name, password_hash)
     SELECT $2 || g || '@bench.test', '$argon2id$bench' FROM generate_series(1, $1) g RETURNING id`,
    [n, tag],
  );
  const ids = rows.map((r) => Number(r.id));
  const clearing = await ledger.systemAccount('live', 'USDT', 'external_clearing');
  await Promise.all(
    ids.map(async (id) =>
      ledger.transfer({
        book: 'live',
        kind: 'deposit',
        idempotencyKey: `bench-deposit:${id}`,
        actor: 'bench',
        postings: [
          { accountId: clearing, amount: -1_000_000_000n * USDT },
          { accountId: await ledger.walletAccount('live', id, 'USDT'), amount: 1_000_000_000n * USDT },
        ],
      }),
    ),
  );
  return ids;
}

/** Not timed: a listed auction (written as minting writes it; the chain is not what is measured). */
async function auction(
  db: Database,
  charityId: number,
  minutes: number,
  incrementBps: number,
): Promise<number> {
  const at = new Date(clock.now).toISOString();
  const id = await insertDrop(db, {
    book: 'live',
    name: 'Bench drawing',
    description: '',
    creator: 'bench',
    artworkUploadId: '0'.repeat(24),
    charityId,
    charityShareBps: 10_000,
    platformFeeBps: 0,
    asset: 'USDT',
    saleType: 'auction',
    startPrice: 100n * USDT,
    reserve: null,
    minIncrementBps: incrementBps,
    buyNow: null,
    durationSeconds: minutes * 60,
    startsAt: at,
    createdBy: 'bench',
    createdAt: at,
  });
  await markMinted(db, id, {
    tokenId: BigInt(id),
    contractAddress: `0x${'b'.repeat(40)}`,
    txHash: `0x${'c'.repeat(64)}`,
    at,
    startsAt: at,
    endsAt: new Date(clock.now + minutes * 60_000).toISOString(),
  });
  return id;
}

async function run(db: Database, label: string): Promise<void> {
  await migrate(db);
  if (process.env.BENCH_DEBUG) slowQueries(db);
  const audit = new AuditService(db);
  const now = () => clock.now;
  const ledger = new LedgerService(db, audit, undefined, { now });
  await ledger.ensureSystemAccounts();
  const keys = new KeyRing(Buffer.alloc(32, 5));
  const nft = new NftService({
    db,
    ledger,
    notices: new NoticesService(db, now),
    audit,
    quoteKeys: keys.purpose('quotes'),
    now,
    // Each sale's donation is appended to the public log in the sale's transaction, as in the server
    // (BENCH_NO_LOG=1: without the log, to see what its appends cost).
    donations: process.env.BENCH_NO_LOG
      ? null
      : donationsOf(new DonationLog({ db, signingKeys: keys.purpose('donation-log-signing'), now })),
  });
  const charity = await insertCharity(db, {
    name: 'Bench charity',
    address: `0x${'a'.repeat(40)}`,
    createdBy: 'bench',
    at: new Date(clock.now).toISOString(),
  });
  const bidders = await customers(db, ledger, Math.max(...CLIENTS), 'bidder');
  console.log(`\n${label}`);
  await hotAuction(db, nft, ledger, charity.id, bidders);
  await settlement(db, nft, charity.id, bidders);
}

/** Bids per second on one hot auction, and the ledger's 2-hot-account transfers, at each client count. */
async function hotAuction(
  db: Database,
  nft: NftService,
  ledger: LedgerService,
  charityId: number,
  bidders: number[],
): Promise<void> {
  const [hotA, hotB] = await customers(db, ledger, 2, 'hot');
  const wallets = [
    await ledger.walletAccount('live', hotA as number, 'USDT'),
    await ledger.walletAccount('live', hotB as number, 'USDT'),
  ];
  let n = 0;
  for (const clients of CLIENTS) {
    // A 0.01 % increment keeps a long run of accepted bids within the bidders' money.
    const drop = await auction(db, charityId, 60 * 24, 1);
    let accepted = 0;
    // Each bidder bids from the least next bid it last learnt (the page, then each refusal's `minBid`).
    const known = Array.from({ length: clients }, () => 100);
    const bids = await measure(clients, async (c) => {
      const amount = ((known[c] as number) * (1 + Math.random() * 0.001) + 0.01).toFixed(2);
      const bidder = bidders[c] as number;
      try {
        const quote = await nft.quote('live', bidder, { dropId: drop, kind: 'bid', amount });
        await nft.commit('live', bidder, { quoteId: quote.quoteId, requestId: `bench-${++n}-bid` });
        accepted += 1;
      } catch (error) {
        // Outbid between the quote and the commit, or already leading: a refused bid, counted as tried.
        const minBid = (error as { data?: { minBid?: string } }).data?.minBid;
        if (minBid) known[c] = Number(minBid);
      }
    });
    const hot = await measure(clients, (c) =>
      ledger.transfer({
        book: 'live',
        kind: 'transfer',
        idempotencyKey: `bench-hot:${++n}`,
        actor: 'bench',
        postings: [
          { accountId: wallets[c % 2] as number, amount: -1n },
          { accountId: wallets[(c + 1) % 2] as number, amount: 1n },
        ],
      }),
    );
    console.log(
      `  ${String(clients).padStart(3)} clients: one hot auction ${bids.toFixed(0).padStart(6)} bids/s (${(
        (accepted / Math.max(1, bids * SECONDS)) * 100
      ).toFixed(0)} % accepted)   ledger, 2 hot accounts: ${hot.toFixed(0).padStart(6)} transfers/s`,
    );
  }
}

/** N auctions, each with one held winning bid, ended; then timed: closing them all. */
async function settlement(
  db: Database,
  nft: NftService,
  charityId: number,
  bidders: number[],
): Promise<void> {
  const ids: number[] = [];
  for (let i = 0; i < AUCTIONS; i++) ids.push(await auction(db, charityId, 10, 500));
  for (let i = 0; i < ids.length; i += 500)
    await Promise.all(
      ids.slice(i, i + 500).map(async (id, j) => {
        const bidder = bidders[(i + j) % bidders.length] as number;
        const quote = await nft.quote('live', bidder, { dropId: id, kind: 'bid', amount: '150' });
        await nft.commit('live', bidder, { quoteId: quote.quoteId, requestId: `bench-settle-${id}` });
      }),
    );
  clock.now += 11 * 60_000;
  const stats0 = { ...nft.ledger.stats };
  const t0 = performance.now();
  const closed = await nft.settleDue(512);
  if (process.env.BENCH_DEBUG) console.log(stats0, nft.ledger.stats);
  const seconds = (performance.now() - t0) / 1000;
  const sold = await db.query<{ n: string }>(`SELECT count(*) AS n FROM nft_drops WHERE state = 'sold'`);
  console.log(
    `  settlement: ${closed} ended auctions closed in ${seconds.toFixed(2)} s (${(closed / seconds).toFixed(0)}/s; aim: 10,000 under 10 s); ${sold[0]?.n} sold in all`,
  );
}

if (WHERE === 'pglite') {
  const dir = mkdtempSync(join(tmpdir(), 'swx-bench-nft-'));
  const db = await openPglite(join(dir, 'pglite'));
  try {
    await run(db, 'PGlite (on disk)');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const bench = await benchDatabase('nft');
  try {
    await run(bench.db, 'PostgreSQL');
  } finally {
    await bench.drop();
  }
}

/** BENCH_DEBUG: statements slower than 30 ms, with their time. */
function slowQueries(db: Database): void {
  const wrap = (q: Database['query']) =>
    (async (sql: string, params?: readonly unknown[]) => {
      const t0 = performance.now();
      const rows = await q(sql, params);
      const took = performance.now() - t0;
      if (took > 30) console.log(`${took.toFixed(0)} ms: ${sql.replace(/\s+/g, ' ').slice(0, 140)}`);
      return rows;
    }) as Database['query'];
  const transaction = db.transaction.bind(db);
  db.query = wrap(db.query.bind(db));
  db.transaction = (work) => transaction((tx) => work({ ...tx, query: wrap(tx.query.bind(tx)) }));
}

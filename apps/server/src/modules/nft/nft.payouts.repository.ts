import type { Queryable } from '../../platform/db.ts';

/** SQL of charity payouts (amounts as bigint across this boundary; times from the service clock). */

type Raw = Record<string, unknown>;
const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : (v instanceof Date ? v : new Date(String(v))).toISOString();

export type PayoutRow = {
  id: number;
  charityId: number;
  charityName: string;
  address: string;
  asset: 'USDT' | 'USDC';
  amount: bigint;
  state: 'proposed' | 'approved' | 'sending' | 'stuck' | 'sent' | 'failed' | 'rejected';
  /** Why it was rejected, or why it failed on the chain (`no_chain`, `asset`, `reverted`). */
  reason: string | null;
  proposedById: number;
  proposedBy: string;
  decidedBy: string | null;
  txHash: string | null;
  logIndex: number | null;
  createdAt: string;
  decidedAt: string | null;
};

const COLUMNS = `p.*, c.name AS charity_name, c.address, sp.email AS proposed_email, sd.email AS decided_email
  FROM nft_payouts p JOIN nft_charities c ON c.id = p.charity_id JOIN staff sp ON sp.id = p.proposed_by
  LEFT JOIN staff sd ON sd.id = p.decided_by`;

function payoutOf(r: Raw): PayoutRow {
  return {
    id: Number(r.id),
    charityId: Number(r.charity_id),
    charityName: String(r.charity_name),
    address: String(r.address),
    asset: r.asset as PayoutRow['asset'],
    amount: BigInt(r.amount as string),
    state: r.state as PayoutRow['state'],
    proposedById: Number(r.proposed_by),
    proposedBy: String(r.proposed_email),
    decidedBy: r.decided_email === null ? null : String(r.decided_email),
    reason: r.reason === null || r.reason === undefined ? null : String(r.reason),
    txHash: r.tx_hash === null ? null : String(r.tx_hash),
    logIndex: r.log_index === null ? null : Number(r.log_index),
    createdAt: iso(r.created_at) as string,
    decidedAt: iso(r.decided_at),
  };
}

export async function insertPayout(
  tx: Queryable,
  p: { charityId: number; asset: string; amount: bigint; proposedBy: number; at: string },
): Promise<number> {
  const [r] = await tx.query<Raw>(
    `INSERT INTO nft_payouts (charity_id, asset, amount, proposed_by, created_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING id`,
    [p.charityId, p.asset, p.amount.toString(), p.proposedBy, p.at],
  );
  return Number(r?.id);
}

export async function payoutById(db: Queryable, id: number): Promise<PayoutRow | null> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} WHERE p.id = $1`, [id]);
  return rows[0] ? payoutOf(rows[0]) : null;
}

export async function listPayouts(db: Queryable, limit: number): Promise<PayoutRow[]> {
  const rows = await db.query<Raw>(`SELECT ${COLUMNS} ORDER BY p.id DESC LIMIT $1`, [limit]);
  return rows.map(payoutOf);
}

/** proposed → approved (with its entry) or rejected, once; false when it was decided already. */
export async function decidePayout(
  tx: Queryable,
  id: number,
  d: {
    state: 'approved' | 'rejected';
    by: number;
    at: string;
    entryId: number | null;
    reason: string | null;
  },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE nft_payouts SET state = $2, decided_by = $3, decided_at = $4, entry_id = $5, reason = $6
     WHERE id = $1 AND state = 'proposed' RETURNING id`,
    [id, d.state, d.by, d.at, d.entryId, d.reason],
  );
  return rows.length === 1;
}

/** Approved and sending payouts, oldest first: what the payout job moves on. */
export async function openPayouts(db: Queryable, limit: number): Promise<PayoutRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${COLUMNS} WHERE p.state IN ('approved', 'sending', 'stuck') ORDER BY p.id LIMIT $1`,
    [limit],
  );
  return rows.map(payoutOf);
}

/** approved → sending, once: the payout is handed to the hot wallet. */
export async function markPayoutSending(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE nft_payouts SET state = 'sending' WHERE id = $1 AND state = 'approved' RETURNING id`,
    [id],
  );
  return rows.length === 1;
}

/**
 * A sending payout's newest transaction hash (lowercase; a replacement at a higher fee changes it),
 * and `stuck` when the hot wallet says so (back to sending when it is no longer).
 */
export async function setPayoutTx(db: Queryable, id: number, txHash: string, stuck: boolean): Promise<void> {
  await db.query(
    `UPDATE nft_payouts SET tx_hash = $2, state = CASE WHEN $3::boolean THEN 'stuck' ELSE 'sending' END
     WHERE id = $1 AND state IN ('sending', 'stuck')`,
    [id, txHash.toLowerCase(), stuck],
  );
}

/**
 * sending → sent (with its transaction, its entry and its leaf in the donation log) or failed (the
 * entry that gave the money back, and the reason), once; false when it was finished already.
 */
export async function finishPayout(
  tx: Queryable,
  id: number,
  d:
    | { state: 'sent'; entryId: number; at: string; txHash: string; logIndex: number }
    | { state: 'failed'; entryId: number; at: string; reason: string },
): Promise<boolean> {
  const rows =
    d.state === 'sent'
      ? await tx.query(
          `UPDATE nft_payouts SET state = 'sent', done_entry_id = $2, done_at = $3, tx_hash = $4, log_index = $5
           WHERE id = $1 AND state IN ('sending', 'stuck') RETURNING id`,
          [id, d.entryId, d.at, d.txHash.toLowerCase(), d.logIndex],
        )
      : await tx.query(
          `UPDATE nft_payouts SET state = 'failed', done_entry_id = $2, done_at = $3, reason = $4
           WHERE id = $1 AND state IN ('sending', 'stuck') RETURNING id`,
          [id, d.entryId, d.at, d.reason],
        );
  return rows.length === 1;
}

/** What was sent to the charities in an asset (each sent payout is also its leaf in the donation log). */
export async function paidOutTotal(db: Queryable, asset: string): Promise<bigint> {
  const rows = await db.query<{ total: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS total FROM nft_payouts WHERE state = 'sent' AND asset = $1`,
    [asset],
  );
  return BigInt(rows[0]?.total ?? '0');
}

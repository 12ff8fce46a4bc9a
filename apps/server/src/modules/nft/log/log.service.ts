import { ed25519 } from '@noble/curves/ed25519.js';
import { type DonationLeafFields, donationLeafBytes, treeHeadMessage } from '@swx/contract';
import type { Database, Queryable } from '../../../platform/db.ts';
import type { PurposeKeys } from '../../../platform/keys.ts';
import * as repo from './log.repository.ts';
import { consistencyProof, inclusionProof, leafHash, treeHash } from './transparency.ts';

/** One leaf as published (the wire's `nftLogLeaf`): its fields and the bytes its hash is made of. */
export type DonationLogLeaf = {
  index: number;
  kind: 'sale' | 'payout';
  dropId: number | null;
  tokenId: string | null;
  asset: string;
  amount: string;
  txHash: string | null;
  /** Hex of the exact leaf bytes (packages/contract `donationLeafBytes`). */
  leafData: string;
  createdAt: string;
};

/** A signed tree head (the wire's `nftTreeHead`); `timestamp` in epoch milliseconds. */
export type DonationTreeHead = {
  treeSize: number;
  rootHash: string;
  timestamp: number;
  signature: string;
  keyId: string;
  publicKey: string;
};

export type DonationEntry = {
  kind: 'sale' | 'payout';
  dropId?: number | null;
  tokenId?: bigint | string | null;
  amount: bigint;
  asset: string;
  txHash?: string | null;
};

export type DonationLogDeps = {
  db: Database;
  /** `keys.purpose('donation-log-signing')`: the Ed25519 seed of the tree heads. */
  signingKeys: PurposeKeys;
  /** The module clock (epoch ms): each leaf's time and each head's timestamp. */
  now: () => number;
};

export class DonationLogError extends Error {}

/** A stored leaf, served only when its bytes are still the encoding of its fields. */
function toLeaf(r: repo.LeafRow): DonationLogLeaf {
  const fields = { ...r, amount: r.amount.toString() };
  if (!Buffer.from(donationLeafBytes(fields)).equals(r.leafData))
    throw new DonationLogError(`leaf ${r.seq}: its bytes are not the encoding of its fields`);
  return {
    index: r.seq,
    kind: r.kind,
    dropId: r.dropId,
    tokenId: r.tokenId,
    asset: r.asset,
    amount: fields.amount,
    txHash: r.txHash,
    leafData: r.leafData.toString('hex'),
    createdAt: r.at,
  };
}

const toHead = (h: repo.HeadRow): DonationTreeHead => ({
  treeSize: h.size,
  rootHash: h.root.toString('hex'),
  timestamp: Date.parse(h.signedAt),
  signature: h.signature,
  keyId: h.keyId,
  publicKey: h.publicKey,
});

/**
 * The charity donation log (RFC 9162 style; README.md): every donation appended as a leaf in the
 * caller's transaction, signed tree heads, inclusion and consistency proofs, and the cumulative
 * sums computed from the log. The format and the verifiers are packages/contract's transparency.ts.
 */
export class DonationLog {
  private readonly deps: DonationLogDeps;

  constructor(deps: DonationLogDeps) {
    this.deps = deps;
  }

  /** The Ed25519 public key (hex) the current tree heads are signed with. */
  get publicKey(): string {
    return Buffer.from(ed25519.getPublicKey(this.deps.signingKeys.current.key)).toString('hex');
  }

  /**
   * Appends a donation in `tx` (the transaction that posts it: both commit, or neither); answers
   * its leaf index. Appends wait for one another until their transactions end.
   */
  async append(tx: Queryable, entry: DonationEntry): Promise<number> {
    return (await this.appendMany(tx, [entry]))[0] as number;
  }

  /** Appends donations in `tx` in their order (one lock and one read of the size for all); their leaf indexes. */
  async appendMany(tx: Queryable, entries: readonly DonationEntry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    await repo.lockLog(tx);
    const size = await repo.logSize(tx);
    const at = new Date(this.deps.now()).toISOString();
    const indexes: number[] = [];
    for (const [i, entry] of entries.entries()) {
      const fields: DonationLeafFields = {
        seq: size + i,
        kind: entry.kind,
        dropId: entry.dropId ?? null,
        tokenId: entry.tokenId === undefined || entry.tokenId === null ? null : String(entry.tokenId),
        asset: entry.asset,
        amount: entry.amount.toString(),
        txHash: entry.txHash?.toLowerCase() ?? null,
        at,
      };
      let bytes: Uint8Array;
      try {
        bytes = donationLeafBytes(fields);
      } catch (error) {
        throw new DonationLogError((error as Error).message);
      }
      await repo.insertLeaf(tx, { ...fields, amount: entry.amount, leafData: Buffer.from(bytes) });
      indexes.push(fields.seq);
    }
    return indexes;
  }

  /** The number of leaves. */
  size(): Promise<number> {
    return repo.logSize(this.deps.db);
  }

  /** Signs and stores the head of the whole log as it is now (size, root, timestamp); answers it. */
  publishTreeHead(): Promise<DonationTreeHead> {
    const { db, signingKeys, now } = this.deps;
    return db.transaction(async (tx) => {
      await repo.lockLog(tx);
      const size = await repo.logSize(tx);
      const root = treeHash(await this.leafHashes(tx, size));
      const timestamp = now();
      const message = treeHeadMessage({ treeSize: size, rootHash: root.toString('hex'), timestamp });
      const signature = ed25519.sign(Buffer.from(message, 'utf8'), signingKeys.current.key);
      const head: repo.HeadRow = {
        size,
        root,
        signedAt: new Date(timestamp).toISOString(),
        keyId: signingKeys.current.id,
        publicKey: this.publicKey,
        signature: Buffer.from(signature).toString('hex'),
      };
      await repo.insertHead(tx, head);
      return toHead(head);
    });
  }

  /** The latest published head (of `size` leaves, when given), or null. */
  async treeHead(size?: number): Promise<DonationTreeHead | null> {
    const head = await repo.latestHead(this.deps.db, size ?? null);
    return head ? toHead(head) : null;
  }

  /** The published heads, newest first. */
  async heads(limit = 30): Promise<DonationTreeHead[]> {
    return (await repo.headsPage(this.deps.db, limit)).map(toHead);
  }

  /** Leaves newest first (below the index `before`, when given; a drop's only, when `dropId` is given). */
  async leaves(
    before: number | null = null,
    limit = 50,
    dropId: number | null = null,
  ): Promise<DonationLogLeaf[]> {
    return (await repo.leavesPage(this.deps.db, before, limit, dropId)).map(toLeaf);
  }

  /** The leaf `index` and its audit path in the tree of the first `size` leaves (RFC 9162 §2.1.3). */
  async inclusion(
    index: number,
    size: number,
  ): Promise<{ leaf: DonationLogLeaf; treeSize: number; path: string[] }> {
    const hashes = await this.leafHashes(this.deps.db, size);
    const path = this.proof(() => inclusionProof(hashes, index, size));
    const leaf = await repo.leafAt(this.deps.db, index);
    if (!leaf) throw new DonationLogError(`no leaf ${index}`);
    return { leaf: toLeaf(leaf), treeSize: size, path };
  }

  /** The proof that the tree of `m` leaves is a prefix of the tree of `n` (RFC 9162 §2.1.4). */
  async consistency(m: number, n: number): Promise<{ m: number; n: number; path: string[] }> {
    const hashes = await this.leafHashes(this.deps.db, n);
    return { m, n, path: this.proof(() => consistencyProof(hashes, m, n)) };
  }

  /** What the log holds for an asset (a drop's only, when given): given (sales) and paid out (payouts). */
  async cumulative(asset: string, dropId?: number): Promise<{ given: bigint; paidOut: bigint }> {
    const sums = await repo.sumsByKind(this.deps.db, asset, dropId ?? null);
    return { given: sums.get('sale') ?? 0n, paidOut: sums.get('payout') ?? 0n };
  }

  /** The first `size` leaves' hashes, from their stored bytes; a size beyond the log is refused. */
  private async leafHashes(db: Queryable, size: number): Promise<Buffer[]> {
    if (!Number.isSafeInteger(size) || size < 0) throw new DonationLogError(`no tree of size ${size}`);
    const data = await repo.leafData(db, size);
    if (data.length < size) throw new DonationLogError(`the log has ${data.length} leaves, not ${size}`);
    return data.map(leafHash);
  }

  private proof(make: () => Buffer[]): string[] {
    try {
      return make().map((hash) => hash.toString('hex'));
    } catch (error) {
      if (error instanceof RangeError) throw new DonationLogError(error.message);
      throw error;
    }
  }
}

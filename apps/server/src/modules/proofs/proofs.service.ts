import {
  ASSET_SCALES,
  type ProofAssets,
  type ProofBranchData,
  type ProofRoot,
  proofMessage,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { SnapshotAccount } from '../ledger/ledger.snapshot.repository.ts';
import {
  dayExists,
  insertLeaves,
  insertRoot,
  type LeafRow,
  leafOf,
  leavesOf,
  publishedDays,
  type RootRow,
  rootOf,
  rootsOf,
} from './proofs.repository.ts';
import { rootSigner } from './proofs.sign.ts';
import { buildTreeParallel } from './proofs.tree.parallel.ts';
import {
  branchOf,
  type buildTree,
  type Leaf,
  leafAt,
  leafLevel,
  leafSecret,
  NegativeSumError,
  PROOF_LINES,
  type Tree,
  treeIdOf,
  treeOf,
} from './proofs.tree.ts';

/** What the platform holds of an asset on chain for a day's proof (proofs.assets.ts); null when nothing is read. */
export type AssetsReader = (
  day: string,
  asset: string,
  customerIds: readonly number[],
) => Promise<ProofAssets | null>;

/** Which line of a leaf an account kind adds to: loans owed, earn and smart plans on their own; the rest is the balance. */
const LINE_OF_KIND: Readonly<Record<string, number>> = { earn: 1, smart: 2, loan: 3 };

/** Customers' figures per asset, from the ledger's snapshot: one leaf per customer holding anything in it. */
export function leavesByAsset(accounts: readonly SnapshotAccount[]): Map<string, Leaf[]> {
  const byAsset = new Map<string, Map<number, [bigint, bigint, bigint, bigint]>>();
  for (const account of accounts) {
    const customers = byAsset.get(account.asset) ?? new Map();
    byAsset.set(account.asset, customers);
    const sums = customers.get(account.ownerId) ?? [0n, 0n, 0n, 0n];
    sums[LINE_OF_KIND[account.kind] ?? 0] += account.balance;
    customers.set(account.ownerId, sums);
  }
  return new Map(
    [...byAsset].map(([asset, customers]) => [
      asset,
      [...customers].map(([customerId, sums]) => ({ customerId, sums })),
    ]),
  );
}

const totalsOf = (sums: readonly bigint[]) =>
  Object.fromEntries(PROOF_LINES.map((line, i) => [line, String(sums[i])])) as Record<
    (typeof PROOF_LINES)[number],
    string
  >;

export type ProofsDeps = {
  db: Database;
  ledger: LedgerService;
  audit: AuditService;
  leafKeys: PurposeKeys;
  signingKeys: PurposeKeys;
  assets: AssetsReader | null;
  /** The module clock (epoch ms): the snapshot's time as published. */
  now: () => number;
  logger?: Logger;
};

/** Proof of liabilities: the day's snapshot, trees and signed roots; the published roots; a customer's branch. */
export class ProofsService {
  private readonly deps: ProofsDeps;
  /** The last trees built or rebuilt (a branch is served from its tree, rebuilt from the stored leaves). */
  private readonly trees = new Map<string, Tree>();

  constructor(deps: ProofsDeps) {
    this.deps = deps;
  }

  /** The Ed25519 public key the current roots are signed with (hex). */
  get publicKey(): string {
    return rootSigner(this.deps.signingKeys.current.key).publicKey;
  }

  /**
   * Takes the day's snapshot of the live book and publishes one signed root per asset; once per
   * day (a day already published answers its roots). A negative figure refuses the whole day and
   * alerts staff.
   */
  async snapshot(day: string): Promise<ProofRoot[]> {
    const { db, ledger, signingKeys } = this.deps;
    if (await dayExists(db, day)) return this.roots(day).then((r) => r.roots);
    const { accounts } = await ledger.customerSnapshot('live');
    const at = new Date(this.deps.now()).toISOString();
    const byAsset = leavesByAsset(accounts);
    const customers = [...new Set(accounts.map((a) => a.ownerId))];
    const signer = rootSigner(signingKeys.current.key);
    const built: { root: RootRow; leaves: LeafRow[]; tree: Tree }[] = [];
    for (const asset of new Set([...Object.keys(ASSET_SCALES), ...byAsset.keys()])) {
      const treeId = treeIdOf(day, asset);
      const leaves = byAsset.get(asset) ?? [];
      const made = await this.tree(day, asset, leaves);
      const { tree } = made;
      const stored: LeafRow[] = made.order.map((at, position) => {
        const leaf = leaves[at] as Leaf;
        return { position, customerId: leaf.customerId, sums: leaf.sums, hash: leafAt(tree, position) };
      });
      const figures = {
        treeId,
        takenAt: at,
        rootHash: tree.root.hash.toString('hex'),
        leafCount: tree.leafCount,
        totals: totalsOf(tree.root.sums),
      };
      const message = proofMessage(figures);
      const assets =
        (await this.deps.assets?.(day, asset, customers).catch((error: unknown) => {
          this.deps.logger?.warn({ err: error, asset }, 'proof of assets not read');
          return null;
        })) ?? null;
      built.push({
        tree,
        leaves: stored,
        root: {
          day,
          asset,
          takenAt: at,
          rootHash: figures.rootHash,
          leafCount: tree.leafCount,
          totals: tree.root.sums,
          keyId: signingKeys.current.id,
          publicKey: signer.publicKey,
          message,
          signature: signer.sign(message),
          assets,
        },
      });
    }
    await db.transaction(async (tx) => {
      for (const b of built) await insertRoot(tx, b.root);
      for (const b of built) await insertLeaves(tx, day, b.root.asset, b.leaves);
    });
    for (const b of built) this.remember(b.tree);
    return built.map((b) => this.wire(b.root));
  }

  /** One asset's tree; a negative figure alerts staff and refuses the day. */
  private async tree(
    day: string,
    asset: string,
    leaves: readonly Leaf[],
  ): Promise<ReturnType<typeof buildTree>> {
    try {
      return await buildTreeParallel(treeIdOf(day, asset), this.deps.leafKeys.current.key, leaves);
    } catch (error) {
      if (error instanceof NegativeSumError)
        await this.deps.audit.alertStaff(
          'proofs',
          `proof of liabilities for ${day} ${asset} refused: ${error.message}`,
          {
            day,
            asset,
            customerId: error.customerId,
          },
        );
      throw error;
    }
  }

  /** The roots of a day (the latest when none is asked) and the days published. */
  async roots(day?: string): Promise<{ day: string | null; roots: ProofRoot[]; days: string[] }> {
    const days = await publishedDays(this.deps.db, 60);
    const shown = day ?? days[0] ?? null;
    const roots = shown === null ? [] : await rootsOf(this.deps.db, shown);
    return { day: roots.length > 0 ? shown : null, roots: roots.map((r) => this.wire(r)), days };
  }

  /** The customer's leaf and branch in a day's tree of an asset; leaf null when they held nothing in it. Unknown day or asset: null. */
  async branch(customerId: number, day: string, asset: string): Promise<ProofBranchData | null> {
    const { db, leafKeys } = this.deps;
    const root = await rootOf(db, day, asset);
    if (!root) return null;
    const leaf = await leafOf(db, day, asset, customerId);
    if (!leaf) return { root: this.wire(root), leaf: null };
    const treeId = treeIdOf(day, asset);
    const tree = await this.treeOf(treeId, day, asset);
    if (tree.root.hash.toString('hex') !== root.rootHash)
      throw new Error(`stored leaves of ${treeId} do not give its root`);
    const key = leafKeys.byId(root.keyId);
    if (!key) throw new Error(`the key ${root.keyId} of ${treeId} is no longer kept`);
    const { index, siblings } = branchOf(tree, leaf.position);
    return {
      root: this.wire(root),
      leaf: {
        customerId,
        secret: leafSecret(key, treeId, customerId).toString('hex'),
        sums: totalsOf(leaf.sums),
        index,
        siblings,
      },
    };
  }

  private async treeOf(treeId: string, day: string, asset: string): Promise<Tree> {
    const cached = this.trees.get(treeId);
    if (cached) return cached;
    const tree = treeOf(treeId, leafLevel(await leavesOf(this.deps.db, day, asset)));
    this.remember(tree);
    return tree;
  }

  private remember(tree: Tree): void {
    this.trees.delete(tree.treeId);
    this.trees.set(tree.treeId, tree);
    // Keep the trees of about a day (one per asset and the day before's).
    while (this.trees.size > 2 * Object.keys(ASSET_SCALES).length) {
      const oldest = this.trees.keys().next().value;
      if (oldest === undefined) break;
      this.trees.delete(oldest);
    }
  }

  private wire(root: RootRow): ProofRoot {
    return {
      day: root.day,
      asset: root.asset,
      scale: ASSET_SCALES[root.asset as keyof typeof ASSET_SCALES] ?? 0,
      treeId: treeIdOf(root.day, root.asset),
      takenAt: root.takenAt,
      rootHash: root.rootHash,
      leafCount: root.leafCount,
      totals: totalsOf(root.totals),
      publicKey: root.publicKey,
      message: root.message,
      signature: root.signature,
      assets: root.assets,
    };
  }
}

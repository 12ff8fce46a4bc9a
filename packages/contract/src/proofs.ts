import { z } from 'zod/mini';

/**
 * Proof of liabilities (modules/proofs): each day at 00:00 UTC, per asset, a Merkle sum tree of the
 * live book's customer balances, its root signed (Ed25519) and published; each customer downloads
 * their branch and checks it in the page. Figures here are minor units as integer strings (the
 * tree hashes minor units, so the verifier reads them as they were hashed).
 */

/** The lines every node sums, in this order: balance (available plus held), earn, smart plans, loans owed. */
export const PROOF_LINES = ['balance', 'earn', 'smart', 'loan'] as const;
export type ProofLine = (typeof PROOF_LINES)[number];

/** Minor units, unsigned (no sign is ever valid in a proof). */
export const minorString = z.string().check(z.regex(/^\d{1,39}$/));
const hex = (bytes: number) => z.string().check(z.regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`)));
const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

const sums = z.object({ balance: minorString, earn: minorString, smart: minorString, loan: minorString });

/** One address of the platform read on chain at the proof's block, with its signed message when the platform holds its key. */
export const assetAddress = z.object({
  role: z.enum(['hot_wallet', 'deposit']),
  address: z.string(),
  amountMinor: minorString,
  /** EIP-191 personal_sign of `assetsMessage`; null when the platform does not hold the address's key. */
  signature: z.nullable(z.string()),
});

/** The platform's holdings of an asset on chain at one block, beside the liabilities. */
export const proofAssets = z.object({
  /** `none`: no chain read for this asset (it is not on the platform's chain, or no chain runs). */
  chain: z.enum(['embedded', 'development', 'external', 'none']),
  chainId: z.nullable(z.int()),
  block: z.nullable(z.string()),
  blockHash: z.nullable(z.string()),
  totalMinor: minorString,
  /** The text each address signed. */
  message: z.nullable(z.string()),
  addresses: z.array(assetAddress),
});
export type ProofAssets = z.infer<typeof proofAssets>;

export const proofRoot = z.object({
  day: isoDay,
  asset: z.string(),
  scale: z.int(),
  treeId: z.string(),
  takenAt: z.string(),
  rootHash: hex(32),
  leafCount: z.int(),
  totals: sums,
  publicKey: hex(32),
  /** The signed text (`proofMessage`), and its Ed25519 signature. */
  message: z.string(),
  signature: hex(64),
  assets: z.nullable(proofAssets),
});
export type ProofRoot = z.infer<typeof proofRoot>;

export const proofRootsQuery = z.object({ day: z.optional(isoDay) });
export const proofRootsData = z.object({
  /** The day shown (the latest when none was asked); null before the first snapshot. */
  day: z.nullable(isoDay),
  roots: z.array(proofRoot),
  /** The days published, newest first (at most 60). */
  days: z.array(isoDay),
});

export const proofBranchQuery = z.object({
  day: isoDay,
  asset: z.string().check(z.regex(/^[A-Z0-9]{2,12}$/)),
});
export const proofSibling = z.object({
  hash: hex(32),
  sums: z.tuple([minorString, minorString, minorString, minorString]),
});
export const proofBranchData = z.object({
  root: proofRoot,
  /** Null when the customer had nothing in this asset at the snapshot (no leaf). */
  leaf: z.nullable(
    z.object({
      customerId: z.int(),
      /** The customer's secret for this tree (64 hex digits): shown only to them. */
      secret: hex(32),
      sums,
      index: z.int(),
      siblings: z.array(proofSibling),
    }),
  ),
});
export type ProofBranchData = z.infer<typeof proofBranchData>;

/** The text signed for a root: every figure a customer compares, one per line. */
export function proofMessage(root: {
  treeId: string;
  takenAt: string;
  rootHash: string;
  leafCount: number;
  totals: Record<ProofLine, string>;
}): string {
  return [
    'swx proof of liabilities v1',
    `tree ${root.treeId}`,
    `taken ${root.takenAt}`,
    `root ${root.rootHash}`,
    `leaves ${root.leafCount}`,
    ...PROOF_LINES.map((line) => `${line} ${root.totals[line]}`),
  ].join('\n');
}

/** The text each platform address signs for the proof of assets of a day. */
export const assetsMessage = (day: string, asset: string, block: string) =>
  `swx proof of assets v1\nday ${day}\nasset ${asset}\nblock ${block}`;

import { z } from 'zod/mini';
import { ASSET_SCALES, type Asset } from './money.ts';
import { proposalCalls, settingProposal } from './proposals.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';

/**
 * Four eyes: above a threshold an approval needs a second staff member. Each review kind with four
 * eyes reads the system parameter `fourEyesAbove.<kind>.<asset>` (the amount in the asset's units);
 * an asset without one needs a single approval, and the review screen says so. Admins change a
 * threshold in the back office, and a change needs two of them: one proposes, another approves
 * (10049 for the proposer; 10048 while a change of the same threshold already waits).
 */
export const FOUR_EYES_KINDS = ['loan', 'loanRepayment', 'earn', 'withdrawal', 'depositProof'] as const;
export type FourEyesKind = (typeof FOUR_EYES_KINDS)[number];
export const FOUR_EYES_ASSETS = Object.keys(ASSET_SCALES) as Asset[];

/** The system parameter of a threshold. */
export const fourEyesParamKey = (kind: FourEyesKind, asset: Asset): string =>
  `fourEyesAbove.${kind}.${asset}`;

/** A threshold as staff write it: a positive amount with at most the asset's decimals (checked by the server). */
const thresholdAmount = z.string().check(z.trim(), z.regex(/^(?=.*[1-9])\d{1,15}(\.\d{1,18})?$/));

export const fourEyesProposal = settingProposal({
  kind: z.enum(FOUR_EYES_KINDS),
  asset: z.enum(Object.keys(ASSET_SCALES) as [Asset, ...Asset[]]),
  /** The proposed threshold; null: remove it (one approval would suffice). */
  value: z.nullable(z.string()),
  /** The threshold when it was proposed. */
  before: z.nullable(z.string()),
});
export type FourEyesProposal = z.infer<typeof fourEyesProposal>;

export const fourEyesThreshold = z.object({
  kind: z.enum(FOUR_EYES_KINDS),
  asset: z.enum(Object.keys(ASSET_SCALES) as [Asset, ...Asset[]]),
  /** Above this amount (in the asset's units) two approvals are needed; null: none is set. */
  value: z.nullable(z.string()),
});
export type FourEyesThreshold = z.infer<typeof fourEyesThreshold>;

export const fourEyesSettings = z.object({
  thresholds: z.array(fourEyesThreshold),
  /** Changes waiting for a second admin, oldest first. */
  pending: z.array(fourEyesProposal),
  /** The latest decided changes, newest first (20 at most). */
  recent: z.array(fourEyesProposal),
});
export type FourEyesSettings = z.infer<typeof fourEyesSettings>;

export const fourEyesProposeBody = z.object({
  kind: z.enum(FOUR_EYES_KINDS),
  asset: z.enum(Object.keys(ASSET_SCALES) as [Asset, ...Asset[]]),
  /** The new threshold, or null to remove it. */
  value: z.nullable(thresholdAmount),
});

const ADMINS = STAFF_DUTIES.fourEyes.roles;

const thresholdCalls = proposalCalls({
  path: '/settings/four-eyes/proposals',
  roles: ADMINS,
  body: fourEyesProposeBody,
  data: fourEyesProposal,
  setting: 'threshold',
  who: 'admin',
  proposeSummary:
    'Propose a new threshold (or none) for a review kind and asset; it applies once another admin approves it (10048 while one already waits); audited',
});

/** The four-eyes thresholds' staff calls under /swx/admin (admins only; every step audited). */
export const fourEyesAdminCalls = {
  getFourEyes: {
    method: 'GET',
    path: '/settings/four-eyes',
    summary:
      'Every four-eyes threshold per review kind and asset, the changes waiting for a second admin and the latest decided',
    roles: ADMINS,
    data: fourEyesSettings,
  },
  proposeFourEyes: thresholdCalls.propose,
  approveFourEyes: thresholdCalls.approve,
  rejectFourEyes: thresholdCalls.reject,
} as const satisfies Record<string, AdminCallDefinition>;

import { z } from 'zod/mini';
import { Code } from './codes.ts';
import { wireId } from './ids.ts';
import { reviewStaff } from './review.ts';
import type { AdminCallDefinition, StaffRole } from './staffBase.ts';

/**
 * A setting changed under four eyes (the four-eyes thresholds, the loans' limit rule): one staff
 * member proposes a value, another approves it, and only then does it apply; the proposer may not
 * approve (10049) but may withdraw it, and while a change of a setting waits no other change of it
 * can be proposed (10048). Each setting states its value in its own fields; the proposal around
 * them, and the three calls that propose, approve and turn one down, are built here.
 */
export const PROPOSAL_STATES = ['pending', 'approved', 'rejected'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/**
 * A proposal of a setting: its own fields (`shape`), who proposed it and when, how it ended.
 * `proposedBy` is a staff member, or may be null where the setting's first value is the platform's.
 */
export const settingProposal = <
  Shape extends z.core.$ZodShape,
  By extends z.ZodMiniType = typeof reviewStaff,
>(
  shape: Shape,
  proposedBy?: By,
) =>
  z.object({
    id: z.int(),
    ...shape,
    proposedBy: (proposedBy ?? reviewStaff) as By,
    proposedAt: z.string(),
    state: z.enum(PROPOSAL_STATES),
    decidedBy: z.nullable(reviewStaff),
    decidedAt: z.nullable(z.string()),
  });

/** What the calls of a setting changed under four eyes say: its name, who decides, where. */
type ProposalCallsOf<Body extends z.ZodMiniType, Data extends z.ZodMiniType> = {
  /** The proposals' path under /swx/admin, e.g. `/settings/four-eyes/proposals`. */
  path: string;
  roles: readonly StaffRole[];
  body: Body;
  data: Data;
  /** The setting in a few words, e.g. `threshold`, `limit rule`. */
  setting: string;
  /** Who decides, e.g. `admin`, `staff member`. */
  who: string;
  /** The propose call's summary (what the body says, what is refused). */
  proposeSummary: string;
};

/** The propose, approve and reject calls of a setting changed under four eyes (every step audited). */
export function proposalCalls<Body extends z.ZodMiniType, Data extends z.ZodMiniType>(
  o: ProposalCallsOf<Body, Data>,
) {
  const params = z.object({ id: wireId() });
  return {
    propose: {
      method: 'POST',
      path: o.path,
      summary: o.proposeSummary,
      roles: o.roles,
      body: o.body,
      data: o.data,
      refusals: {
        [Code.CHANGE_AWAITS_SECOND_ADMIN]: `a change of the same ${o.setting} already waits for a second ${o.who}`,
      },
    },
    approve: {
      method: 'POST',
      path: `${o.path}/:id/approve`,
      summary: `Approve another ${o.who}'s proposed ${o.setting}: it applies from now on (your own: 10049); audited`,
      roles: o.roles,
      params,
      data: o.data,
      refusals: { [Code.OWN_PROPOSAL]: `the ${o.who} who proposed the change approving it` },
    },
    reject: {
      method: 'POST',
      path: `${o.path}/:id/reject`,
      summary: `Turn down a proposed ${o.setting} (the proposer may withdraw their own); the ${o.setting} stays; audited`,
      roles: o.roles,
      params,
      data: o.data,
    },
  } as const satisfies Record<string, AdminCallDefinition>;
}

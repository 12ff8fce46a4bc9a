import {
  ASSET_SCALES,
  type Asset,
  Code,
  FOUR_EYES_ASSETS,
  FOUR_EYES_KINDS,
  type FourEyesKind,
  type FourEyesProposal,
  type FourEyesSettings,
  formatMinor,
  fourEyesParamKey,
  MoneyFormatError,
  parseMinor,
  plainDecimal,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import {
  decideProposal,
  findParam,
  findProposal,
  insertProposal,
  listProposals,
  type ProposalRow,
  paramsWithPrefix,
  writeParam,
} from './params.repository.ts';

/** The admin acting (the route has checked the role). */
export type FourEyesActor = { staffId: number };

type Deps = {
  db: Database;
  audit: AuditService;
  staff: Pick<StaffService, 'refsOf'>;
  now?: () => number;
};

const RECENT = 20;
const actorOf = (staffId: number) => `staff:${staffId}`;

/** The kind and asset of a threshold's key (`fourEyesAbove.<kind>.<asset>`). */
function partsOf(key: string): { kind: FourEyesKind; asset: Asset } {
  const [, kind, asset] = key.split('.');
  return { kind: kind as FourEyesKind, asset: asset as Asset };
}

/**
 * The four-eyes thresholds (system parameters `fourEyesAbove.<kind>.<asset>`, read by the review
 * kinds through `thresholdFromParams`) as admins change them: one admin proposes a threshold (or
 * none), another approves it, and only then is it written; the proposer may not approve (10049),
 * and while a change of a threshold waits no other change of it can be proposed (10048). Every
 * step is audited (`four_eyes.proposed`, `.approved`, `.rejected`, subject the parameter's key);
 * an approval writes the parameter and its audit row in one transaction.
 */
export class FourEyesSettingsService {
  private readonly deps: Required<Deps>;

  constructor(deps: Deps) {
    this.deps = { ...deps, now: deps.now ?? Date.now };
  }

  /** Every kind's threshold per asset, the changes waiting and the latest decided. */
  async settings(): Promise<FourEyesSettings> {
    const values = await paramsWithPrefix(this.deps.db, 'fourEyesAbove.');
    const thresholds = FOUR_EYES_KINDS.flatMap((kind) =>
      FOUR_EYES_ASSETS.map((asset) => ({
        kind,
        asset,
        value: values.get(fourEyesParamKey(kind, asset)) ?? null,
      })),
    );
    const { pending, recent } = await listProposals(this.deps.db, RECENT);
    const all = await this.wire([...pending, ...recent]);
    return { thresholds, pending: all.slice(0, pending.length), recent: all.slice(pending.length) };
  }

  /** Proposes a threshold (value null: none); 10048 while a change of it already waits. */
  async propose(
    actor: FourEyesActor,
    input: { kind: FourEyesKind; asset: Asset; value: string | null },
  ): Promise<FourEyesProposal> {
    const key = fourEyesParamKey(input.kind, input.asset);
    const value = input.value === null ? null : this.normalised(input.asset, input.value);
    const proposed = await this.deps.db.transaction(async (tx) => {
      const before = await findParam(tx, key);
      const row = await insertProposal(tx, {
        key,
        value,
        before,
        proposedBy: actor.staffId,
        at: new Date(this.deps.now()).toISOString(),
      });
      if (!row) throw new ApiError(Code.CHANGE_AWAITS_SECOND_ADMIN);
      await this.deps.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: 'four_eyes.proposed',
          subject: key,
          data: { proposal: row.id, before, value },
        },
      ]);
      return row;
    });
    return this.one(proposed);
  }

  /**
   * Approves another admin's proposal: the threshold is written (or removed) with its audit row in
   * one transaction and applies to the next review. Unknown or already decided: 10028; the
   * proposer: 10049.
   */
  async approve(actor: FourEyesActor, id: number): Promise<FourEyesProposal> {
    return this.decide(actor, id, 'approved');
  }

  /** Turns a waiting proposal down (its proposer may withdraw it); the threshold stays as it is. */
  async reject(actor: FourEyesActor, id: number): Promise<FourEyesProposal> {
    return this.decide(actor, id, 'rejected');
  }

  private async decide(
    actor: FourEyesActor,
    id: number,
    decision: 'approved' | 'rejected',
  ): Promise<FourEyesProposal> {
    const decided = await this.deps.db.transaction(async (tx) => {
      const proposal = await findProposal(tx, id, true);
      if (!proposal || proposal.decision !== null) throw new ApiError(Code.NOT_FOUND);
      if (decision === 'approved' && proposal.proposedBy === actor.staffId)
        throw new ApiError(Code.OWN_PROPOSAL);
      const row = await decideProposal(tx, {
        id,
        decision,
        decidedBy: actor.staffId,
        at: new Date(this.deps.now()).toISOString(),
      });
      if (!row) throw new ApiError(Code.NOT_FOUND);
      const { kind, asset } = partsOf(row.key);
      if (decision === 'approved')
        await writeParam(
          tx,
          row.key,
          row.value,
          `Above this many ${asset} a ${kind} review needs two approvers`,
        );
      await this.deps.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: `four_eyes.${decision}`,
          subject: row.key,
          data: {
            proposal: row.id,
            proposedBy: actorOf(row.proposedBy),
            ...(decision === 'approved' ? { before: row.before, value: row.value } : {}),
          },
        },
      ]);
      return row;
    });
    return this.one(decided);
  }

  /** The amount as the asset's units say it (10000.50 → 10000.5); more decimals than the asset has: 10026. */
  private normalised(asset: Asset, value: string): string {
    try {
      const minor = parseMinor(value, ASSET_SCALES[asset]);
      if (minor <= 0n) throw new MoneyFormatError('not positive');
      return plainDecimal(formatMinor(minor, ASSET_SCALES[asset]));
    } catch (error) {
      if (error instanceof MoneyFormatError)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'value', issue: 'amount' }]);
      throw error;
    }
  }

  private async one(row: ProposalRow): Promise<FourEyesProposal> {
    const [out] = await this.wire([row]);
    if (!out) throw new Error('no proposal');
    return out;
  }

  /** Proposals as the wire states them, staff named by email. */
  private async wire(rows: ProposalRow[]): Promise<FourEyesProposal[]> {
    const ids = rows.flatMap((r) => (r.decidedBy === null ? [r.proposedBy] : [r.proposedBy, r.decidedBy]));
    const refs = await this.deps.staff.refsOf(ids);
    const ref = (staffId: number) => refs.get(staffId) ?? { id: staffId, email: actorOf(staffId) };
    return rows.map((r) => ({
      id: r.id,
      ...partsOf(r.key),
      value: r.value,
      before: r.before,
      proposedBy: ref(r.proposedBy),
      proposedAt: r.proposedAt,
      state: r.decision ?? 'pending',
      decidedBy: r.decidedBy === null ? null : ref(r.decidedBy),
      decidedAt: r.decidedAt,
    }));
  }
}

import { Code, type ProposalState } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { AuditService } from '../audit/audit.service.ts';
import {
  decideProposal,
  findParam,
  findParamRow,
  findProposal,
  insertProposal,
  lastApproved,
  listProposals,
  type ProposalRow,
  writeParam,
} from './params.repository.ts';

/** The staff member acting (the route has checked the role). */
export type ProposalActor = { staffId: number };

/** Staff named by email, for the wire (`StaffService.refsOf`). */
export type StaffRefs = (ids: number[]) => Promise<Map<number, { id: number; email: string }>>;
type StaffRef = { id: number; email: string };

/** A proposal as the settings state it: the key and values as stored, staff named. */
export type SettingProposal = {
  id: number;
  key: string;
  value: string | null;
  before: string | null;
  proposedBy: StaffRef;
  proposedAt: string;
  state: ProposalState;
  decidedBy: StaffRef | null;
  decidedAt: string | null;
};

/** The value that applies now, and the approved proposal that set it (null: set otherwise, e.g. seeded). */
export type AppliedSetting = { value: string; updatedAt: string; setBy: SettingProposal | null };

/** A setting (one key, or a family of keys by prefix) changed under four eyes. */
export type FourEyesSetting = {
  /** The keys it covers: those starting with `prefix` (a whole key covers itself). */
  prefix: string;
  /** The audit actions' prefix: `<audit>.proposed`, `.approved`, `.rejected` (subject the key). */
  audit: string;
  /** The value as it is stored (null: remove the parameter), or an ApiError (10026) for one it refuses. */
  normalise(key: string, value: string | null): string | null;
  /** The parameter's description, written with its first value. */
  describe(key: string): string;
  /** A value as the audit log records it (default: as stored). */
  audited?(value: string | null): unknown;
};

const RECENT = 20;
const actorOf = (staffId: number) => `staff:${staffId}`;

/**
 * System parameters changed under four eyes (`four_eyes_proposals`): one staff member proposes a
 * value of a key (or none), another approves it, and only then is the parameter written; the
 * proposer may not approve (10049, also a CHECK), and while a change of a key waits no other
 * change of it can be proposed (10048). Every step is audited (`<audit>.proposed`, `.approved`,
 * `.rejected`, subject the key); an approval writes the parameter and its audit row in one
 * transaction. A proposal outside the setting's keys is not found (10028) through it, so a call
 * of one setting cannot decide another's.
 */
export class ParamProposals {
  private readonly db: Database;
  private readonly audit: Pick<AuditService, 'appendInTx'>;
  private readonly now: () => number;
  private readonly setting: FourEyesSetting;

  constructor(
    deps: { db: Database; audit: Pick<AuditService, 'appendInTx'>; now?: () => number },
    setting: FourEyesSetting,
  ) {
    this.db = deps.db;
    this.audit = deps.audit;
    this.now = deps.now ?? Date.now;
    this.setting = setting;
  }

  /** The waiting changes (oldest first) and the latest decided (newest first) of the setting's keys. */
  async list(refs: StaffRefs): Promise<{ pending: SettingProposal[]; recent: SettingProposal[] }> {
    const { pending, recent } = await listProposals(this.db, this.setting.prefix, RECENT);
    const all = await wire([...pending, ...recent], refs);
    return { pending: all.slice(0, pending.length), recent: all.slice(pending.length) };
  }

  /** A key's value now, and the approved proposal that set it if nothing wrote it since. */
  async applied(key: string, refs: StaffRefs): Promise<AppliedSetting | null> {
    const [param, last] = await Promise.all([findParamRow(this.db, key), lastApproved(this.db, key)]);
    if (!param) return null;
    const [setBy] = last && last.value === param.value ? await wire([last], refs) : [];
    return { ...param, setBy: setBy ?? null };
  }

  /** Proposes a value of a key (null: remove it); 10048 while a change of it already waits. */
  async propose(
    actor: ProposalActor,
    key: string,
    proposed: string | null,
    refs: StaffRefs,
  ): Promise<SettingProposal> {
    if (!key.startsWith(this.setting.prefix))
      throw new Error(`${key} is not a key of ${this.setting.prefix}`);
    const value = this.setting.normalise(key, proposed);
    const row = await this.db.transaction(async (tx) => {
      const before = await findParam(tx, key);
      const inserted = await insertProposal(tx, {
        key,
        value,
        before,
        proposedBy: actor.staffId,
        at: new Date(this.now()).toISOString(),
      });
      if (!inserted) throw new ApiError(Code.CHANGE_AWAITS_SECOND_ADMIN);
      await this.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: `${this.setting.audit}.proposed`,
          subject: key,
          data: { proposal: inserted.id, before: this.audited(before), value: this.audited(value) },
        },
      ]);
      return inserted;
    });
    return one(row, refs);
  }

  /**
   * Approves another staff member's proposal: the parameter is written (or removed) with its audit
   * row in one transaction. Unknown, of another setting or already decided: 10028; the proposer: 10049.
   */
  approve(actor: ProposalActor, id: number, refs: StaffRefs): Promise<SettingProposal> {
    return this.decide(actor, id, 'approved', refs);
  }

  /** Turns a waiting proposal down (its proposer may withdraw it); the parameter stays as it is. */
  reject(actor: ProposalActor, id: number, refs: StaffRefs): Promise<SettingProposal> {
    return this.decide(actor, id, 'rejected', refs);
  }

  private async decide(
    actor: ProposalActor,
    id: number,
    decision: 'approved' | 'rejected',
    refs: StaffRefs,
  ): Promise<SettingProposal> {
    const decided = await this.db.transaction(async (tx) => {
      const proposal = await findProposal(tx, id, true);
      if (!proposal || proposal.decision !== null || !proposal.key.startsWith(this.setting.prefix))
        throw new ApiError(Code.NOT_FOUND);
      if (decision === 'approved' && proposal.proposedBy === actor.staffId)
        throw new ApiError(Code.OWN_PROPOSAL);
      const row = await decideProposal(tx, {
        id,
        decision,
        decidedBy: actor.staffId,
        at: new Date(this.now()).toISOString(),
      });
      if (!row) throw new ApiError(Code.NOT_FOUND);
      if (decision === 'approved') await writeParam(tx, row.key, row.value, this.setting.describe(row.key));
      await this.audit.appendInTx(tx, [
        {
          actor: actorOf(actor.staffId),
          action: `${this.setting.audit}.${decision}`,
          subject: row.key,
          data: {
            proposal: row.id,
            proposedBy: actorOf(row.proposedBy),
            ...(decision === 'approved'
              ? { before: this.audited(row.before), value: this.audited(row.value) }
              : {}),
          },
        },
      ]);
      return row;
    });
    return one(decided, refs);
  }

  private audited(value: string | null): unknown {
    return this.setting.audited ? this.setting.audited(value) : value;
  }
}

async function one(row: ProposalRow, refs: StaffRefs): Promise<SettingProposal> {
  const [out] = await wire([row], refs);
  if (!out) throw new Error('no proposal');
  return out;
}

/** Proposals with their staff named by email. */
async function wire(rows: ProposalRow[], refs: StaffRefs): Promise<SettingProposal[]> {
  const ids = rows.flatMap((r) => (r.decidedBy === null ? [r.proposedBy] : [r.proposedBy, r.decidedBy]));
  const named = await refs([...new Set(ids)]);
  const ref = (staffId: number) => named.get(staffId) ?? { id: staffId, email: actorOf(staffId) };
  return rows.map((r) => ({
    id: r.id,
    key: r.key,
    value: r.value,
    before: r.before,
    proposedBy: ref(r.proposedBy),
    proposedAt: r.proposedAt,
    state: r.decision ?? 'pending',
    decidedBy: r.decidedBy === null ? null : ref(r.decidedBy),
    decidedAt: r.decidedAt,
  }));
}

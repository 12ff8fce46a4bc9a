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
  type FourEyesSetting,
  ParamProposals,
  type ProposalActor,
  type SettingProposal,
  type StaffRefs,
} from './params.proposals.ts';
import { paramsWithPrefix } from './params.repository.ts';

/** The admin acting (the route has checked the role). */
export type FourEyesActor = ProposalActor;

type Deps = {
  db: Database;
  audit: AuditService;
  staff: Pick<StaffService, 'refsOf'>;
  now?: () => number;
};

const PREFIX = 'fourEyesAbove.';

/** The kind and asset of a threshold's key (`fourEyesAbove.<kind>.<asset>`). */
function partsOf(key: string): { kind: FourEyesKind; asset: Asset } {
  const [, kind, asset] = key.split('.');
  return { kind: kind as FourEyesKind, asset: asset as Asset };
}

/** The amount as the asset's units say it (10000.50 → 10000.5); more decimals than the asset has: 10026. */
function normalised(asset: Asset, value: string): string {
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

/** The thresholds as a setting changed under four eyes: an amount in the asset's units, or none. */
const THRESHOLDS: FourEyesSetting = {
  prefix: PREFIX,
  audit: 'four_eyes',
  normalise: (key, value) => (value === null ? null : normalised(partsOf(key).asset, value)),
  describe: (key) => {
    const { kind, asset } = partsOf(key);
    return `Above this many ${asset} a ${kind} review needs two approvers`;
  },
};

/** A threshold's proposal as the wire states it. */
const wire = ({ key, ...p }: SettingProposal): FourEyesProposal => ({ ...p, ...partsOf(key) });

/**
 * The four-eyes thresholds (system parameters `fourEyesAbove.<kind>.<asset>`, read by the review
 * kinds through `thresholdFromParams`) as admins change them, with the params' proposals
 * (`ParamProposals`, audit actions `four_eyes.*`): one admin proposes a threshold (or none),
 * another approves it, and only then is it written.
 */
export class FourEyesSettingsService {
  private readonly db: Database;
  private readonly proposals: ParamProposals;
  private readonly refs: StaffRefs;

  constructor(deps: Deps) {
    this.db = deps.db;
    this.proposals = new ParamProposals(deps, THRESHOLDS);
    this.refs = (ids) => deps.staff.refsOf(ids);
  }

  /** Every kind's threshold per asset, the changes waiting and the latest decided. */
  async settings(): Promise<FourEyesSettings> {
    const values = await paramsWithPrefix(this.db, PREFIX);
    const thresholds = FOUR_EYES_KINDS.flatMap((kind) =>
      FOUR_EYES_ASSETS.map((asset) => ({
        kind,
        asset,
        value: values.get(fourEyesParamKey(kind, asset)) ?? null,
      })),
    );
    const { pending, recent } = await this.proposals.list(this.refs);
    return { thresholds, pending: pending.map(wire), recent: recent.map(wire) };
  }

  /** Proposes a threshold (value null: none); 10048 while a change of it already waits. */
  async propose(
    actor: FourEyesActor,
    input: { kind: FourEyesKind; asset: Asset; value: string | null },
  ): Promise<FourEyesProposal> {
    const key = fourEyesParamKey(input.kind, input.asset);
    return wire(await this.proposals.propose(actor, key, input.value, this.refs));
  }

  /** Approves another admin's proposal: it applies to the next review (unknown or decided: 10028; the proposer: 10049). */
  async approve(actor: FourEyesActor, id: number): Promise<FourEyesProposal> {
    return wire(await this.proposals.approve(actor, id, this.refs));
  }

  /** Turns a waiting proposal down (its proposer may withdraw it); the threshold stays as it is. */
  async reject(actor: FourEyesActor, id: number): Promise<FourEyesProposal> {
    return wire(await this.proposals.reject(actor, id, this.refs));
  }
}

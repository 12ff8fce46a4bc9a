import {
  ASSET_SCALES,
  type Asset,
  Code,
  formatMinor,
  INVITE_HOLD_DAYS,
  INVITE_REBATE_CHOICES,
  INVITE_REWARD_DAYS,
  type InviteTerms,
  MoneyFormatError,
  parseMinor,
} from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { addDays, utcDay } from '../products/figures.ts';
import { type InvitesContext, nowIso } from './invites.shared.ts';

/*
 * The programme's terms, system parameters (params module) staff change, audited: `invites.shareBps`,
 * `invites.dailyCapUsdt`, `invites.enabled`. A change applies from the next day
 * (`invites.effectiveFrom`); the days before it keep the terms it replaced (`invites.previous`).
 */

export type Terms = { shareBps: number; dailyCapMinor: bigint; enabled: boolean };

const USDT_SCALE = ASSET_SCALES.USDT;
const DEFAULTS: Terms = { shareBps: 2000, dailyCapMinor: 100_000_000n, enabled: true };

function parseTerms(share: string | undefined, cap: string | undefined, enabled: string | undefined): Terms {
  const shareBps = Number(share);
  let dailyCapMinor = DEFAULTS.dailyCapMinor;
  try {
    if (cap !== undefined) dailyCapMinor = parseMinor(cap, USDT_SCALE);
  } catch {
    // A value written by hand that is not an amount: the default cap, never no cap.
  }
  return {
    shareBps:
      Number.isInteger(shareBps) && shareBps >= 0 && shareBps <= 10_000 ? shareBps : DEFAULTS.shareBps,
    dailyCapMinor,
    enabled: enabled === undefined ? DEFAULTS.enabled : enabled === 'true',
  };
}

async function stored(ctx: InvitesContext) {
  const p = await ctx.params.withPrefix('invites.');
  const current = parseTerms(
    p.get('invites.shareBps'),
    p.get('invites.dailyCapUsdt'),
    p.get('invites.enabled'),
  );
  const [share, cap, enabled] = (p.get('invites.previous') ?? '').split('|');
  const previous = p.has('invites.previous') ? parseTerms(share, cap, enabled) : current;
  return { current, previous, effectiveFrom: p.get('invites.effectiveFrom') ?? '2000-01-01' };
}

/** The terms that apply to the fees of `day`. */
export async function termsFor(ctx: InvitesContext, day: string): Promise<Terms> {
  const s = await stored(ctx);
  return day >= s.effectiveFrom ? s.current : s.previous;
}

/** The terms as the wire states them (the latest set: they apply from `effectiveFrom`). */
export async function currentTerms(ctx: InvitesContext): Promise<InviteTerms> {
  return wireTerms((await stored(ctx)).current);
}

export function wireTerms(t: Terms): InviteTerms {
  return {
    shareBps: t.shareBps,
    rewardDays: INVITE_REWARD_DAYS,
    holdDays: INVITE_HOLD_DAYS,
    dailyCapUsdt: formatMinor(t.dailyCapMinor, USDT_SCALE),
    rebateChoices: [...INVITE_REBATE_CHOICES],
    enabled: t.enabled,
  };
}

/** Staff change the terms: written with their audit row in one transaction; they apply from tomorrow. */
export async function updateTerms(
  ctx: InvitesContext,
  staffId: number,
  body: { shareBps: number; dailyCapUsdt: string; enabled: boolean },
): Promise<InviteTerms> {
  let capMinor: bigint;
  try {
    capMinor = parseMinor(body.dailyCapUsdt, USDT_SCALE);
  } catch (error) {
    if (!(error instanceof MoneyFormatError)) throw error;
    throw new ApiError(Code.INVALID_INPUT, [{ path: 'dailyCapUsdt', issue: 'amount' }]);
  }
  const s = await stored(ctx);
  const tomorrow = addDays(utcDay(ctx.now()), 1);
  // A second change the same day keeps what applied before the first.
  const previous = s.effectiveFrom >= tomorrow ? s.previous : s.current;
  const next: Terms = { shareBps: body.shareBps, dailyCapMinor: capMinor, enabled: body.enabled };
  const cap = formatMinor(capMinor, USDT_SCALE);
  await ctx.db.transaction(async (tx) => {
    const set = (key: string, value: string, what: string) => ctx.params.setInTx(tx, key, value, what);
    await set('invites.shareBps', String(next.shareBps), 'Invite friends: the inviter share in basis points');
    await set('invites.dailyCapUsdt', cap, 'Invite friends: daily cap per inviter and asset, USDT');
    await set('invites.enabled', String(next.enabled), 'Invite friends: rewards accrue');
    await set('invites.effectiveFrom', tomorrow, 'Invite friends: the day the terms apply from');
    await set(
      'invites.previous',
      `${previous.shareBps}|${formatMinor(previous.dailyCapMinor, USDT_SCALE)}|${previous.enabled}`,
      'Invite friends: the terms before effectiveFrom',
    );
    await ctx.audit.appendInTx(tx, [
      {
        actor: `staff:${staffId}`,
        action: 'invites.settings.updated',
        subject: 'invites.settings',
        data: {
          shareBps: next.shareBps,
          dailyCapUsdt: cap,
          enabled: next.enabled,
          from: tomorrow,
          at: nowIso(ctx),
        },
      },
    ]);
  });
  return wireTerms(next);
}

/**
 * The cap of one asset in its minor units: the USDT cap at the asset's USDT price now; 0 when the
 * asset has no price (nothing above a cap that cannot be valued is paid).
 */
export function capInAsset(ctx: InvitesContext, capUsdtMinor: bigint, asset: Asset): bigint {
  if (asset === 'USDT') return capUsdtMinor;
  const price = ctx.usdtPrice(asset);
  if (price === null || !/^\d+(\.\d+)?$/.test(price)) return 0n;
  const [whole = '0', fraction = ''] = price.split('.');
  const priceInt = BigInt(whole + fraction);
  if (priceInt === 0n) return 0n;
  // cap / price, in the asset's minor units, floored.
  return (
    (capUsdtMinor * 10n ** BigInt(ASSET_SCALES[asset]) * 10n ** BigInt(fraction.length)) /
    (priceInt * 10n ** BigInt(USDT_SCALE))
  );
}

import { ASSET_SCALES, formatMinor, inviteSettingsBody, parseMinor } from '@swx/contract';

/**
 * The invite programme's share travels in basis points (2,000 is 20 %); staff read and type it in
 * per cent, at most two decimals (one basis point). Both ways are string shifts: no float.
 */

const PERCENT = /^(\d{1,3})(?:[.,](\d{1,2}))?$/;

/** 2000 → "20"; 1250 → "12.5"; 5 → "0.05". */
export function bpsToPercent(bps: number): string {
  const text = formatMinor(BigInt(bps), 2);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** "12.5" → 1250 (a comma is read as the decimal point); null unless 0 to 100 with at most two decimals. */
export function percentToBps(typed: string): number | null {
  const match = PERCENT.exec(typed.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  const bps = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bps <= 10_000 ? bps : null;
}

/** The settings form as typed. */
export type SettingsDraft = { sharePercent: string; dailyCapUsdt: string; enabled: boolean };
export type SettingsField = 'sharePercent' | 'dailyCapUsdt';
export type SettingsBody = { shareBps: number; dailyCapUsdt: string; enabled: boolean };

/** A field the server names (the body's name) as the form's field. */
export const fieldOfServer = (name: string): SettingsField | null =>
  name === 'shareBps' ? 'sharePercent' : name === 'dailyCapUsdt' ? 'dailyCapUsdt' : null;

/** A cap typed: an amount of USDT above zero with at most its decimals. */
function capOk(typed: string): boolean {
  try {
    return parseMinor(typed.trim(), ASSET_SCALES.USDT) > 0n;
  } catch {
    return false;
  }
}

/** The body the contract takes from the draft, or null and each field to fix (named by the form's field). */
export function checkSettings(draft: SettingsDraft): {
  body: SettingsBody | null;
  problems: Map<SettingsField, 'share' | 'cap'>;
} {
  const problems = new Map<SettingsField, 'share' | 'cap'>();
  const shareBps = percentToBps(draft.sharePercent);
  if (shareBps === null) problems.set('sharePercent', 'share');
  if (!capOk(draft.dailyCapUsdt)) problems.set('dailyCapUsdt', 'cap');
  const checked = inviteSettingsBody.safeParse({
    shareBps: shareBps ?? -1,
    dailyCapUsdt: draft.dailyCapUsdt.trim(),
    enabled: draft.enabled,
  });
  if (!checked.success)
    for (const issue of checked.error.issues) {
      const field = fieldOfServer(String(issue.path[0] ?? '')) ?? 'dailyCapUsdt';
      problems.set(field, field === 'sharePercent' ? 'share' : 'cap');
    }
  return { body: checked.success && problems.size === 0 ? checked.data : null, problems };
}

import { Code } from '@swx/contract';
import { ApiError } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import { consumeCode, issueCode, type SentCode } from './identity.codes.ts';
import { actionCodeMail, type WithdrawalFacts } from './identity.mail.ts';
import { findTotp, findUserById, lastSecurityChange } from './identity.repository.ts';
import { CODE_RESEND_SECONDS, CODE_TTL_SECONDS, type IdentityContext, LIMITS } from './identity.shared.ts';
import { useTotpCode } from './identity.twostep.ts';

/*
 * A fresh confirmation of a money action (a withdrawal): the authenticator's code when two-step
 * sign-in is on, else a 6-digit code sent now to the account's email (or phone), for this purpose
 * only, stored hashed, 10 minutes, 5 attempts, single use. The mail names what it confirms.
 */

export type ConfirmationMethod = 'totp' | 'mail';

export async function confirmationMethod(ctx: IdentityContext, userId: number): Promise<ConfirmationMethod> {
  const credential = await findTotp(ctx.db, userId);
  return credential?.enabled ? 'totp' : 'mail';
}

/** Where an action code goes: the email, else the phone of an account opened by phone. */
async function codeTarget(ctx: IdentityContext, userId: number) {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new ApiError(Code.SESSION_EXPIRED);
  if (user.email) return { user, channel: 'email' as const, target: user.email };
  if (user.phone) return { user, channel: 'sms' as const, target: user.phone };
  throw new ApiError(Code.WRONG_USER_STATUS);
}

/** What binds a withdrawal code to the withdrawal it names: the same figures, or no match. */
const bindingOf = (w: WithdrawalFacts) => JSON.stringify([w.network, w.address, w.asset, w.amount]);

/**
 * Sends a code that confirms one withdrawal, the figures of the customer's pending quote (the
 * caller verified it): the message names amount, asset, network and destination, and the code only
 * confirms those figures. With two-step sign-in on there is nothing to send (10008).
 */
export async function sendActionCode(
  ctx: IdentityContext,
  userId: number,
  language: Parameters<typeof actionCodeMail>[0],
  withdrawal: WithdrawalFacts,
): Promise<SentCode> {
  if ((await confirmationMethod(ctx, userId)) === 'totp') throw new ApiError(Code.WRONG_USER_STATUS);
  const { channel, target } = await codeTarget(ctx, userId);
  await limit(ctx, `code:target:withdrawal:${target}`, LIMITS.codePerTarget);
  await limit(ctx, `code:target-day:${target}`, LIMITS.codePerTargetDaily);
  const code = await issueCode(ctx, channel, target, 'withdrawal', bindingOf(withdrawal));
  const message = actionCodeMail(language, code, CODE_TTL_SECONDS / 60, withdrawal);
  if (channel === 'email') await ctx.mailer.send({ to: target, ...message });
  else {
    if (!ctx.sms) throw new Error('no SMS sender is configured');
    await ctx.sms.send({ to: target, text: message.text });
  }
  return { expiresInSeconds: CODE_TTL_SECONDS, resendInSeconds: CODE_RESEND_SECONDS };
}

/**
 * Checks the confirmation of a withdrawal (wrong, used, expired, or a mailed code of other figures:
 * 10091), limited per account apart from the second step of sign-in.
 */
export async function confirmAction(
  ctx: IdentityContext,
  userId: number,
  code: string,
  withdrawal: WithdrawalFacts,
): Promise<void> {
  await limit(ctx, `confirm:withdrawal:${userId}`, LIMITS.withdrawalConfirmPerAccount);
  const credential = await findTotp(ctx.db, userId);
  if (credential?.enabled) {
    const ok = await ctx.db.transaction(async (tx) => {
      const locked = await findTotp(tx, userId, true);
      return locked?.enabled ? useTotpCode(ctx, tx, userId, locked, code.trim()) : false;
    });
    if (!ok) throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    return;
  }
  const { channel, target } = await codeTarget(ctx, userId);
  await consumeCode(ctx, channel, target, 'withdrawal', code.trim(), bindingOf(withdrawal));
}

/** When the account's guard last changed (password, two-step removal): addresses wait a day after it. */
export function securityChangedAt(ctx: IdentityContext, userId: number): Promise<string | null> {
  return lastSecurityChange(ctx.db, userId);
}

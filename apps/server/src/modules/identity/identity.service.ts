import type { Database } from '../../platform/db.ts';
import type { CustomerSession } from '../../platform/http.ts';
import type { KeyRing } from '../../platform/keys.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { SmsSender } from '../../platform/sms.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { alertSecurityOf, lockAccount, type SecurityDetails } from './identity.alerts.ts';
import { type SentCode, sendCode, sendSmsCode } from './identity.codes.ts';
import {
  type ConfirmationMethod,
  confirmAction,
  confirmationMethod,
  securityChangedAt,
  sendActionCode,
} from './identity.confirm.ts';
import type { SecurityEvent, WithdrawalFacts } from './identity.mail.ts';
import { changePassword, resetPassword } from './identity.passwords.ts';
import { isAvailable, isPhoneAvailable, register, registeredUsers } from './identity.registration.ts';
import {
  deviceToken,
  listSessions,
  login,
  logout,
  resolveSession,
  revokeSession,
  type SessionInfo,
  sessionsWithToken,
} from './identity.sessions.ts';
import type {
  Client,
  IdentityContext,
  LoginChallenge,
  LoginResult,
  RegistrationHook,
} from './identity.shared.ts';
import { type SocialProvider, SocialSignIn } from './identity.social.ts';
import { finishSocialLogin, socialProviders, startSocialLogin } from './identity.social-login.ts';
import type { ResealReport } from './identity.totp.ts';
import {
  disableTotp,
  enableTotp,
  loginTotp,
  resealTotpSecrets,
  setupTotp,
  totpStatus,
} from './identity.twostep.ts';

export type { SecurityDetails } from './identity.alerts.ts';
export type { SecurityEvent, WithdrawalFacts } from './identity.mail.ts';
export type { SessionInfo } from './identity.sessions.ts';
export {
  ARGON2,
  type Client,
  type LoginChallenge,
  type LoginResult,
  type RegistrationHook,
} from './identity.shared.ts';

/**
 * Customer identity, the module's public API: a thin front over its use cases, one file each —
 * registration (`identity.registration.ts`), codes by mail and SMS (`identity.codes.ts`), sessions
 * and the platform's session resolver (`identity.sessions.ts`), passwords
 * (`identity.passwords.ts`), two-step verification (`identity.twostep.ts`) and social sign-in
 * (`identity.social-login.ts`); what they share is in `identity.shared.ts`.
 */
export class IdentityService {
  private readonly ctx: IdentityContext;

  constructor(deps: {
    db: Database;
    mailer: Mailer;
    /** The SMS sender of phone codes; without it, sendSmsCode fails. */
    sms?: SmsSender;
    rateLimiter: RateLimiter;
    ledger: LedgerService;
    notices?: NoticesService;
    /** Where the lock link records a customer's self-lock. */
    audit?: Pick<AuditService, 'appendInTx'>;
    /** The server's keys (platform/keys.ts): TOTP secrets sealed at rest, device tokens. */
    keys: KeyRing;
    /** The clock TOTP codes are checked against (tests move it). */
    now?: () => number;
    /** The configured social sign-in providers (config SOCIAL_*), and PUBLIC_URL for their callback. */
    social?: { providers: readonly SocialProvider[]; publicUrl?: string | undefined };
    logger?: Logger;
  }) {
    this.ctx = {
      db: deps.db,
      mailer: deps.mailer,
      sms: deps.sms,
      limiter: deps.rateLimiter,
      ledger: deps.ledger,
      notices: deps.notices,
      audit: deps.audit,
      totpKeys: deps.keys.purpose('totp-seal'),
      deviceKeys: deps.keys.purpose('device-tokens'),
      now: deps.now ?? Date.now,
      social: new SocialSignIn({ db: deps.db, providers: deps.social?.providers ?? [], logger: deps.logger }),
      publicUrl: deps.social?.publicUrl,
      hooks: { registration: null },
    };
  }

  /** The invites module links a registration that names an invite code (a product: installed once built). */
  useRegistrationHook(hook: RegistrationHook): void {
    this.ctx.hooks.registration = hook;
  }

  // Registration
  isAvailable(userName: string): Promise<boolean> {
    return isAvailable(this.ctx, userName);
  }
  isPhoneAvailable(areaCode: string, number: string): Promise<boolean> {
    return isPhoneAvailable(this.ctx, areaCode, number);
  }
  register(input: Parameters<typeof register>[1], client: Client): Promise<LoginResult> {
    return register(this.ctx, input, client);
  }
  registeredUsers(): Promise<number> {
    return registeredUsers(this.ctx);
  }

  // Codes
  /** How this customer confirms a money action: the authenticator, or a code sent now. */
  confirmationMethod(userId: number): Promise<ConfirmationMethod> {
    return confirmationMethod(this.ctx, userId);
  }

  /** Sends the code that confirms one withdrawal, naming its figures (the account has no authenticator). */
  sendActionCode(
    userId: number,
    language: Client['language'],
    withdrawal: WithdrawalFacts,
  ): Promise<SentCode> {
    return sendActionCode(this.ctx, userId, language, withdrawal);
  }

  /** Checks the confirmation of a withdrawal of these figures (10091 when wrong). */
  confirmAction(userId: number, code: string, withdrawal: WithdrawalFacts): Promise<void> {
    return confirmAction(this.ctx, userId, code, withdrawal);
  }

  // Security alerts
  /** Mails and notifies the customer of a security event, with a one-click lock link. */
  securityAlert(
    userId: number,
    event: SecurityEvent,
    client: Client,
    details: SecurityDetails = {},
  ): Promise<void> {
    return alertSecurityOf(this.ctx, userId, event, client, details);
  }

  /** The lock link: locks the account of a valid single-use token (else 10028). */
  lockAccount(token: string): Promise<null> {
    return lockAccount(this.ctx, token);
  }

  /** The last password change or two-step removal of the account. */
  securityChangedAt(userId: number): Promise<string | null> {
    return securityChangedAt(this.ctx, userId);
  }

  sendCode(input: Parameters<typeof sendCode>[1], client: Client): Promise<SentCode> {
    return sendCode(this.ctx, input, client);
  }
  sendSmsCode(input: Parameters<typeof sendSmsCode>[1], client: Client): Promise<SentCode> {
    return sendSmsCode(this.ctx, input, client);
  }

  // Sessions
  login(input: Parameters<typeof login>[1], client: Client): Promise<LoginResult | LoginChallenge> {
    return login(this.ctx, input, client);
  }
  deviceToken(userId: number, held: string | null | undefined): string {
    return deviceToken(this.ctx, userId, held);
  }
  /** The platform's session resolver: a token to its customer, or null. */
  readonly resolveSession = (token: string): Promise<CustomerSession | null> =>
    resolveSession(this.ctx, token);
  logout(session: CustomerSession): Promise<void> {
    return logout(this.ctx, session);
  }
  listSessions(session: CustomerSession): Promise<SessionInfo[]> {
    return listSessions(this.ctx, session);
  }
  revokeSession(session: CustomerSession, id: string): Promise<null> {
    return revokeSession(this.ctx, session, id);
  }
  sessionsWithToken(token: string): Promise<number> {
    return sessionsWithToken(this.ctx, token);
  }

  // Passwords
  resetPassword(input: Parameters<typeof resetPassword>[1], client: Client): Promise<null> {
    return resetPassword(this.ctx, input, client);
  }
  changePassword(
    session: CustomerSession,
    input: Parameters<typeof changePassword>[2],
    client: Client,
  ): Promise<null> {
    return changePassword(this.ctx, session, input, client);
  }

  // Two-step verification
  loginTotp(input: Parameters<typeof loginTotp>[1], client: Client): Promise<LoginResult> {
    return loginTotp(this.ctx, input, client);
  }
  /** After a key rotation: every two-step secret under the previous master sealed under the current one. */
  resealSecrets(): Promise<ResealReport> {
    return resealTotpSecrets(this.ctx);
  }

  totpStatus(session: CustomerSession): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    return totpStatus(this.ctx, session);
  }
  setupTotp(session: CustomerSession): Promise<{ secret: string; uri: string }> {
    return setupTotp(this.ctx, session);
  }
  enableTotp(
    session: CustomerSession,
    input: { code: string },
    client: Client,
  ): Promise<{ recoveryCodes: string[] }> {
    return enableTotp(this.ctx, session, input, client);
  }
  disableTotp(
    session: CustomerSession,
    input: { password: string; code: string },
    client: Client,
  ): Promise<null> {
    return disableTotp(this.ctx, session, input, client);
  }

  // Social sign-in
  socialProviders(): { provider: string; label: string }[] {
    return socialProviders(this.ctx);
  }
  startSocialLogin(
    provider: string,
    origin: string,
    client: Client,
  ): Promise<{ authorizationUrl: string; binding: string }> {
    return startSocialLogin(this.ctx, provider, origin, client);
  }
  finishSocialLogin(
    provider: string,
    input: Parameters<typeof finishSocialLogin>[2],
    binding: string | null,
    client: Client,
  ): Promise<LoginResult | LoginChallenge> {
    return finishSocialLogin(this.ctx, provider, input, binding, client);
  }
}

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Code } from '@swx/contract';
import * as oidc from 'openid-client';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import { sha256 } from './identity.shared.ts';
import { insertSocialFlow, takeSocialFlow } from './identity.social.repository.ts';

/** A provider as configured (platform config SOCIAL_<NAME>_*). */
export type SocialProvider = {
  name: string;
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
};

/** Who the provider says signed in, from a verified ID token (and the userinfo endpoint). */
export type SocialIdentity = {
  provider: string;
  issuer: string;
  subject: string;
  /** Lower-case, or null when the provider gave none. */
  email: string | null;
  /** Only an explicit email_verified = true counts. */
  emailVerified: boolean;
  name: string | null;
  preferredUsername: string | null;
};

/** A started sign-in lives 10 minutes, server-side, and is used once. */
export const SOCIAL_FLOW_TTL_SECONDS = 600;
/** The HttpOnly cookie that ties a started sign-in to the browser that started it. */
export const SOCIAL_BINDING_COOKIE = 'swx_social';
const SCOPE = 'openid email profile';

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The provider could not be reached (network, timeout): 10031. Anything else it refused: 10029. */
function isUnreachable(error: unknown): boolean {
  if (error instanceof oidc.ClientError)
    return error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT';
  if (error instanceof TypeError) {
    const code = (error as { code?: unknown }).code;
    return typeof code !== 'string' || !code.startsWith('ERR_');
  }
  return false;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;

/**
 * Social sign-in with OpenID Connect, authorization code flow with PKCE: `start` keeps state,
 * nonce and code verifier on the server and returns the provider's authorization URL and a random
 * browser binding (for an HttpOnly cookie); `finish` takes the state once, checks the binding,
 * exchanges the code with the verifier (client_secret_basic), verifies the ID token (issuer,
 * audience, nonce, expiry, and its signature against the provider's JWKS) and answers who signed
 * in. What to do with that identity is the identity service's business.
 */
export class SocialSignIn {
  private readonly db: Database;
  private readonly providers: ReadonlyMap<string, SocialProvider>;
  private readonly logger: Logger | undefined;
  /** Discovered provider metadata, once per provider; a failed discovery is tried again next time. */
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(deps: { db: Database; providers: readonly SocialProvider[]; logger?: Logger | undefined }) {
    this.db = deps.db;
    this.providers = new Map(deps.providers.map((p) => [p.name, p]));
    this.logger = deps.logger;
  }

  list(): { provider: string; label: string }[] {
    return [...this.providers.values()].map((p) => ({ provider: p.name, label: p.label }));
  }

  /** The provider of a path segment (`Google` in loginByGoogle); unknown or not configured: 10028. */
  provider(name: string): SocialProvider {
    const provider = this.providers.get(name.toLowerCase());
    if (!provider) throw new ApiError(Code.NOT_FOUND);
    return provider;
  }

  private configuration(provider: SocialProvider): Promise<oidc.Configuration> {
    let configuration = this.configurations.get(provider.name);
    if (!configuration) {
      const issuer = new URL(provider.issuer);
      configuration = oidc.discovery(
        issuer,
        provider.clientId,
        { client_secret: provider.clientSecret },
        oidc.ClientSecretBasic(provider.clientSecret),
        {
          // Plain http is accepted by the config only for a provider on the loopback address.
          execute: [
            oidc.enableNonRepudiationChecks,
            ...(issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : []),
          ],
        },
      );
      this.configurations.set(provider.name, configuration);
      configuration.catch((error: unknown) => {
        this.configurations.delete(provider.name);
        this.logger?.warn(
          { provider: provider.name, reason: (error as Error).message },
          'social sign-in: discovery failed',
        );
      });
    }
    return configuration.catch(() => {
      throw new ApiError(Code.SERVICE_UNAVAILABLE);
    });
  }

  async start(name: string, redirectUri: string): Promise<{ authorizationUrl: string; binding: string }> {
    const provider = this.provider(name);
    const configuration = await this.configuration(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const binding = randomBytes(32).toString('base64url');
    await insertSocialFlow(this.db, {
      stateHash: sha256(state),
      provider: provider.name,
      bindingHash: sha256(binding),
      nonce,
      codeVerifier,
      redirectUri,
      ttlSeconds: SOCIAL_FLOW_TTL_SECONDS,
    });
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { authorizationUrl: url.href, binding };
  }

  async finish(
    name: string,
    input: { code: string; state: string; iss?: string | undefined },
    binding: string | null,
  ): Promise<SocialIdentity> {
    const provider = this.provider(name);
    // One try per state: it is gone from here on, whatever follows.
    const flow = await takeSocialFlow(this.db, sha256(input.state));
    if (
      !flow ||
      flow.expired ||
      flow.provider !== provider.name ||
      !binding ||
      !sameHash(sha256(binding), flow.bindingHash)
    )
      throw new ApiError(Code.NOT_FOUND);
    const configuration = await this.configuration(provider);
    const callback = new URL(flow.redirectUri);
    callback.searchParams.set('code', input.code);
    callback.searchParams.set('state', input.state);
    if (input.iss !== undefined) callback.searchParams.set('iss', input.iss);
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: input.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new ApiError(Code.FORBIDDEN);
      let profile: Record<string, unknown> = claims;
      // Some providers put email and profile only in userinfo (OpenID Connect Core 5.4).
      if (
        claims.email === undefined &&
        tokens.access_token &&
        configuration.serverMetadata().userinfo_endpoint
      )
        profile = {
          ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)),
          ...claims,
        };
      const email = text(profile.email, 254)?.toLowerCase() ?? null;
      return {
        provider: provider.name,
        issuer: claims.iss,
        subject: claims.sub,
        email,
        emailVerified:
          email !== null && (profile.email_verified === true || profile.email_verified === 'true'),
        name: text(profile.name, 100),
        preferredUsername: text(profile.preferred_username, 100),
      };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // The reason only: an error's cause can carry the token's claims, which are personal data.
      this.logger?.warn(
        {
          provider: provider.name,
          reason: (error as Error).message,
          code: (error as { code?: unknown }).code,
        },
        'social sign-in refused',
      );
      throw new ApiError(isUnreachable(error) ? Code.SERVICE_UNAVAILABLE : Code.FORBIDDEN);
    }
  }
}

/**
 * A username for a new account from a provider identity (spec's USERNAME: 3–32 of letters,
 * digits, `_ . -`): the email's local part, else the preferred username, else the name, with
 * accents dropped and anything else turned into `_`; `user` when nothing usable is left. At most
 * 24 characters, so a suffix that makes it unique still fits.
 */
export function socialUserName(
  identity: Pick<SocialIdentity, 'email' | 'preferredUsername' | 'name'>,
): string {
  for (const source of [identity.email?.split('@')[0], identity.preferredUsername, identity.name]) {
    const name = (source ?? '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_.-]+/g, '_')
      .replace(/^[._-]+|[._-]+$/g, '')
      .slice(0, 24)
      .replace(/[._-]+$/, '');
    if (name.length >= 3) return name;
  }
  return 'user';
}

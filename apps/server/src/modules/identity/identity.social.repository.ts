import type { Queryable } from '../../platform/db.ts';

/** A started social sign-in, as kept on the server between the start and the callback. */
export type SocialFlowRow = {
  provider: string;
  bindingHash: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  expired: boolean;
};

export async function insertSocialFlow(
  db: Queryable,
  flow: {
    stateHash: string;
    provider: string;
    bindingHash: string;
    nonce: string;
    codeVerifier: string;
    redirectUri: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO social_login_flows (state_hash, provider, binding_hash, nonce, code_verifier, redirect_uri, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 second')`,
    [
      flow.stateHash,
      flow.provider,
      flow.bindingHash,
      flow.nonce,
      flow.codeVerifier,
      flow.redirectUri,
      flow.ttlSeconds,
    ],
  );
  // Abandoned sign-ins are of no use; a few are swept on every new one.
  await db.query(
    `DELETE FROM social_login_flows WHERE state_hash IN
       (SELECT state_hash FROM social_login_flows WHERE expires_at < now() LIMIT 50)`,
  );
}

/**
 * Takes a started sign-in out by its state hash: whatever the caller then decides, the state has
 * been used (one try per state). Null when there is none.
 */
export async function takeSocialFlow(db: Queryable, stateHash: string): Promise<SocialFlowRow | null> {
  const rows = await db.query<{
    provider: string;
    binding_hash: string;
    nonce: string;
    code_verifier: string;
    redirect_uri: string;
    expired: boolean;
  }>(
    `DELETE FROM social_login_flows WHERE state_hash = $1
     RETURNING provider, binding_hash, nonce, code_verifier, redirect_uri, expires_at <= now() AS expired`,
    [stateHash],
  );
  const r = rows[0];
  return r
    ? {
        provider: r.provider,
        bindingHash: r.binding_hash,
        nonce: r.nonce,
        codeVerifier: r.code_verifier,
        redirectUri: r.redirect_uri,
        expired: r.expired,
      }
    : null;
}

/** The customer a provider identity is linked to, noting this sign-in; null when it is not linked. */
export async function findLinkedUser(db: Queryable, issuer: string, subject: string): Promise<number | null> {
  const rows = await db.query<{ user_id: string }>(
    `UPDATE social_identities SET last_login_at = now() WHERE issuer = $1 AND subject = $2 RETURNING user_id`,
    [issuer, subject],
  );
  return rows[0] ? Number(rows[0].user_id) : null;
}

/**
 * Links a provider identity to a customer. When a concurrent sign-in linked it first, that link
 * stands: the answer is the customer it names.
 */
export async function linkIdentity(
  db: Queryable,
  link: {
    issuer: string;
    subject: string;
    userId: number;
    provider: string;
    email: string | null;
    emailVerified: boolean;
  },
): Promise<number> {
  await db.query(
    `INSERT INTO social_identities (issuer, subject, user_id, provider, email, email_verified)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (issuer, subject) DO NOTHING`,
    [
      link.issuer,
      link.subject,
      link.userId,
      link.provider,
      link.email?.slice(0, 254) ?? null,
      link.emailVerified,
    ],
  );
  const rows = await db.query<{ user_id: string }>(
    'SELECT user_id FROM social_identities WHERE issuer = $1 AND subject = $2',
    [link.issuer, link.subject],
  );
  return Number(rows[0]?.user_id ?? link.userId);
}

/** The customer whose account email is this address (stored lower-case). */
export async function findUserIdByEmail(db: Queryable, email: string): Promise<number | null> {
  const rows = await db.query<{ id: string }>('SELECT id FROM users WHERE email = lower($1)', [email]);
  return rows[0] ? Number(rows[0].id) : null;
}

import { base32Decode, totpCode } from '../../apps/server/src/modules/identity/identity.totp.ts';

/**
 * The code an authenticator app would show for a base32 secret, `offsetSteps` 30-second steps
 * from now. A code is accepted once per step, so a test that has just used the current step asks
 * for the next one (the server accepts one step either side).
 */
export function authenticatorCode(secretBase32: string, offsetSteps = 0): string {
  return totpCode(base32Decode(secretBase32), Date.now() + offsetSteps * 30_000);
}

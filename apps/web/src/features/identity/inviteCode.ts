/** The longest code the register field takes from an address (a real one has 8 characters). */
const CODE_FIELD_MAX = 32;

/**
 * The invite code of a page address's `invite` parameter, as the server reads it (trimmed, upper
 * case), or ''. Whether it is a code at all is for the form's schema and the server to say.
 */
export function inviteCodeFrom(search: string): string {
  const raw = new URLSearchParams(search).get('invite') ?? '';
  return raw.trim().toUpperCase().slice(0, CODE_FIELD_MAX);
}

import {
  ADMIN_API_BASE,
  type AdminCallData,
  type AdminCallDefinition,
  type AdminCallName,
  adminCalls,
  Code,
  LANGUAGE_TAGS,
  type Language,
  type StaffInfo,
} from '@swx/contract';
import type { z } from 'zod/mini';

/**
 * The staff API client: calls by contract name under /swx/admin, with the staff token (kept in
 * sessionStorage, so closing the browser ends it on this device) and the staff member's language.
 */
export class StaffApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const TOKEN_KEY = 'staffToken';
const STAFF_KEY = 'staffInfo';

export function storedSession(): { token: string; staff: StaffInfo } | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const staff = sessionStorage.getItem(STAFF_KEY);
  if (!token || !staff) return null;
  try {
    return { token, staff: JSON.parse(staff) as StaffInfo };
  } catch {
    return null;
  }
}

export function storeSession(session: { token: string; staff: StaffInfo } | null): void {
  if (session) {
    sessionStorage.setItem(TOKEN_KEY, session.token);
    sessionStorage.setItem(STAFF_KEY, JSON.stringify(session.staff));
  } else {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(STAFF_KEY);
  }
}

let onExpired: () => void = () => undefined;
export function setExpiredHandler(handler: () => void): void {
  onExpired = handler;
}

let language: Language = 'en';
export function setApiLanguage(next: Language): void {
  language = next;
}

function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

type CallInput = { params?: Record<string, string | number>; query?: Record<string, string>; body?: unknown };

export function callAdmin<N extends AdminCallName>(
  name: N,
  input: CallInput = {},
): Promise<AdminCallData<N>> {
  return callDefinition(adminCalls[name], input) as Promise<AdminCallData<N>>;
}

/** A staff call by its contract definition (generic screens, e.g. a review kind's `reviewCalls`). */
export async function callDefinition<D extends AdminCallDefinition>(
  definition: D,
  input: CallInput = {},
): Promise<z.infer<D['data']>> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': LANGUAGE_TAGS[language],
  };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = token;
  if (definition.method === 'POST') headers['content-type'] = 'application/json';
  const query = new URLSearchParams(input.query ?? {}).toString();
  let response: Response;
  try {
    response = await fetch(
      `${ADMIN_API_BASE}${fillPath(definition.path, input.params ?? {})}${query ? `?${query}` : ''}`,
      {
        method: definition.method,
        headers,
        body: definition.method === 'POST' ? JSON.stringify(input.body ?? {}) : null,
        signal: AbortSignal.timeout(90_000),
      },
    );
  } catch {
    throw new StaffApiError(-1, '');
  }
  const body = (await response.json().catch(() => null)) as {
    code?: number;
    msg?: string;
    data?: unknown;
  } | null;
  const code = typeof body?.code === 'number' ? body.code : -1;
  if (code === Code.SESSION_EXPIRED && definition.roles !== 'public') {
    storeSession(null);
    onExpired();
  }
  if (code !== Code.OK) throw new StaffApiError(code, body?.msg ?? '', body?.data ?? null);
  const parsed = definition.data.safeParse(body?.data);
  if (!parsed.success) throw new StaffApiError(-1, '');
  return parsed.data as z.infer<D['data']>;
}

/** A KYC photo as an object URL (the call needs the staff token, so an <img> cannot fetch it). */
export async function fetchKycPhoto(photoId: string): Promise<string> {
  const token = sessionStorage.getItem(TOKEN_KEY) ?? '';
  const response = await fetch(`${ADMIN_API_BASE}/kyc/photo/${encodeURIComponent(photoId)}`, {
    headers: { authorization: token },
  });
  if (response.status === 401) {
    storeSession(null);
    onExpired();
  }
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('image/'))
    throw new StaffApiError(response.status, '');
  return URL.createObjectURL(await response.blob());
}

/** The server's localized message of a refusal, or the fallback for anything else. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof StaffApiError && error.message ? error.message : fallback;
}

/** May this staff member make this call (the contract lists each call's roles)? */
export function allowed(staff: StaffInfo | null, call: { roles: readonly string[] }): boolean {
  return staff !== null && call.roles.includes(staff.role);
}

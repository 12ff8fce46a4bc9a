import {
  ADMIN_API_BASE,
  ApiFailure,
  adminCalls,
  createApiClient,
  LANGUAGE_TAGS,
  type Language,
  LOAN_AGREEMENT_ADMIN_PATH,
  type StaffInfo,
  supportFileUrl,
  UPLOAD_FIELD,
  type UploadedFile,
  uploadFileUrl,
} from '@swx/contract';

/** A refusal or failure of a staff call: the shared client's. */
export { ApiFailure as StaffApiError };

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

/**
 * The staff API client: calls by contract name under /swx/admin, with the staff token (kept in
 * sessionStorage, so closing the browser ends it on this device) and the staff member's language.
 * A 401 to a call made in a session ends it; the sign-in steps (public calls) have none to end.
 * Failures the server did not word carry no text: each screen says what failed.
 */
const client = createApiClient({
  base: ADMIN_API_BASE,
  calls: adminCalls,
  headers: () => {
    const headers: Record<string, string> = { 'accept-language': LANGUAGE_TAGS[language] };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.authorization = token;
    return headers;
  },
  onSessionExpired: (call) => {
    if (call !== null && adminCalls[call].roles === 'public') return;
    storeSession(null);
    onExpired();
  },
  text: { network: () => '', error: () => '' },
});

export const callAdmin = client.call;
/** A staff call by its contract definition (generic screens, e.g. a review kind's `reviewCalls`). */
export const callDefinition = client.callDefinition;

/** A KYC photo as an object URL (the call needs the staff token, so an <img> cannot fetch it). */
export async function fetchKycPhoto(photoId: string): Promise<string> {
  const blob = await client.file(`/kyc/photo/${encodeURIComponent(photoId)}`, {
    accepts: (type) => type.startsWith('image/'),
  });
  return URL.createObjectURL(blob);
}

/**
 * A customer's upload (a deposit proof) as an object URL, from the one file route with the staff
 * token (staff of a role the upload's purpose names; audited as `upload.viewed`).
 */
export async function fetchUpload(uploadId: string): Promise<string> {
  const response = await fetch(uploadFileUrl(uploadId), { headers: client.headers() });
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('image/'))
    throw new ApiFailure(response.status, '');
  return URL.createObjectURL(await response.blob());
}

/** A chat attachment (picture or PDF) as an object URL, for the agents of the chat (the read is audited). */
export async function fetchSupportFile(uploadId: string): Promise<{ url: string; pdf: boolean }> {
  const response = await fetch(supportFileUrl(uploadId), { headers: client.headers() });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !(type.startsWith('image/') || type === 'application/pdf'))
    throw new ApiFailure(response.status, '');
  return { url: URL.createObjectURL(await response.blob()), pdf: type === 'application/pdf' };
}

/** A file sent as multipart to a staff upload call (checked and re-encoded by the server). */
async function uploadAsStaff(path: string, file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append(UPLOAD_FIELD, file);
  const response = await fetch(`${ADMIN_API_BASE}${path}`, {
    method: 'POST',
    headers: client.headers(),
    body: form,
  });
  const envelope = (await response.json()) as { code: number; msg?: string; data: unknown };
  if (envelope.code !== 200) throw new ApiFailure(envelope.code, envelope.msg ?? '', envelope.data);
  return envelope.data as UploadedFile;
}

/** An agent's chat attachment, uploaded as multipart (checked and re-encoded by the server). */
export const uploadSupportFile = (file: File) => uploadAsStaff(adminCalls.uploadSupportAttachment.path, file);

/** An image for a help article or page, from the editor. */
export const uploadContentImage = (file: File) => uploadAsStaff(adminCalls.uploadContentImage.path, file);

/** A charity NFT's artwork, from the new-drop form (purpose `nft_artwork`, public once its drop is minted). */
export const uploadNftArtwork = (file: File) => uploadAsStaff(adminCalls.uploadNftArtwork.path, file);

/** The server's localized message of a refusal, or the fallback for anything else. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiFailure && error.message ? error.message : fallback;
}

/** May this staff member make this call (the contract lists each call's roles)? */
export function allowed(staff: StaffInfo | null, call: { roles: readonly string[] }): boolean {
  return staff !== null && call.roles.includes(staff.role);
}

/**
 * A loan's signed agreement (PDF) as an object URL, with the staff token (admin, finance,
 * compliance; the server audits the read). LOAN_AGREEMENT_ADMIN_PATH of the contract.
 */
export async function fetchLoanAgreement(loanId: number): Promise<string> {
  const blob = await client.file(LOAN_AGREEMENT_ADMIN_PATH.replace(':id', String(loanId)), {
    accepts: (type) => type.startsWith('application/pdf'),
  });
  return URL.createObjectURL(blob);
}

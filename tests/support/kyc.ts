import type { IdentificationBody } from '@swx/contract';
import type { Session } from './accounts.ts';
import { customerApi, type StaffApi } from './api.ts';
import { uploadKycPhotos } from './uploads.ts';

/** Who a customer says they are, as the verification screen sends it (the photos are uploaded here). */
export type Person = Omit<IdentificationBody, 'photos'>;

/**
 * Verifies a customer's identity over the API, as a customer and compliance would: three photos
 * uploaded, the identification sent in the live book, then claimed and approved by `compliance`.
 */
export async function verifyIdentityByApi(
  server: { baseUrl: string },
  session: Session,
  compliance: StaffApi,
  person: Person,
): Promise<void> {
  const photos = await uploadKycPhotos(server.baseUrl, session.token);
  await customerApi(server, session, { book: 'live' }).ok('identification', { ...person, photos });
  const queued = (await compliance.ok('kycQueue', {})).find((q) => q.userId === session.userInfo.id);
  await compliance.ok('claimKyc', { id: queued?.id ?? 0 });
  await compliance.ok('approveKyc', { id: queued?.id ?? 0 });
}

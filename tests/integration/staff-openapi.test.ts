import { ADMIN_API_BASE, ADMIN_OPENAPI_PATH, adminCalls, Code, calls } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadKycPhotos } from '../support/uploads.ts';

type Operation = { operationId: string; 'x-roles'?: unknown; 'x-refusals'?: Record<string, string> };
type OpenApi = { openapi: string; info: { title: string }; paths: Record<string, Record<string, Operation>> };

const operationsOf = (doc: OpenApi) =>
  Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod));

/**
 * The staff API's OpenAPI document beside the customer one: staff only, every staff call in it,
 * none in the public one; and the refusal it documents for a lost review claim is the one answered.
 */
describe('the staff OpenAPI document', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let ann: StaffApi;
  let ben: StaffApi;
  let alice: Session;
  useServer(
    {
      staff: [
        { email: 'ann.compliance@swx.test', role: 'compliance' },
        { email: 'ben.compliance@swx.test', role: 'compliance' },
      ],
    },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    const enrol = async (email: string) =>
      staffApi(server, await enrolStaffByApi(server.baseUrl, email, oneTimePasswords[email] ?? ''));
    ann = await enrol('ann.compliance@swx.test');
    ben = await enrol('ben.compliance@swx.test');
    alice = await registerByApi(server, inbox, 'alice.openapi@example.com');
  });

  const documentUrl = () => `${server.baseUrl}${ADMIN_API_BASE}${ADMIN_OPENAPI_PATH}`;
  const read = (token?: string) => fetch(documentUrl(), { headers: token ? { authorization: token } : {} });

  it('refuses anyone but a signed-in staff member with the envelope', async () => {
    for (const token of [undefined, alice.token, 'not-a-token']) {
      const response = await read(token);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 401, data: null });
    }
  });

  it('lists every staff call to staff, and the public document lists none', async () => {
    const response = await read(ann.token);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as OpenApi;
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { title: 'SWX staff API' } });
    expect(
      operationsOf(doc)
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(Object.keys(adminCalls).sort());
    expect(Object.keys(doc.paths).every((path) => path.startsWith(`${ADMIN_API_BASE}/`))).toBe(true);
    expect(doc.paths[`${ADMIN_API_BASE}/staff/{id}`]?.post?.['x-roles']).toEqual(['admin']);

    const open = (await (await fetch(`${server.baseUrl}/swx/openapi.json`)).json()) as OpenApi;
    expect(
      operationsOf(open)
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(Object.keys(calls).sort());
    expect(Object.keys(open.paths).filter((path) => path.startsWith(ADMIN_API_BASE))).toEqual([]);
  });

  it('answers a lost review claim with the code the document gives for it', async () => {
    const photos = await uploadKycPhotos(server.baseUrl, alice.token);
    await customerApi(server, alice).ok('identification', {
      firstName: 'Alice',
      lastName: 'Liddell',
      birthdate: '1992-05-04',
      sex: 'female',
      country: 'GB',
      address: '1 Wonderland Road, Oxford',
      phoneCode: '+44',
      phone: '1865000000',
      documentType: 'idCard',
      photos,
    });
    const id = (await ann.ok('kycQueue', {})).find((q) => q.userId === alice.userInfo.id)?.id ?? 0;
    await ann.ok('claimKyc', { id });

    const doc = (await (await read(ben.token)).json()) as OpenApi;
    const refusals = (path: string) =>
      doc.paths[`${ADMIN_API_BASE}/kyc/{id}/${path}`]?.post?.['x-refusals'] ?? {};
    // Ben loses the claim, and cannot decide Ann's item: the code answered is the documented one.
    for (const [call, path] of [
      ['claimKyc', 'claim'],
      ['approveKyc', 'approve'],
      ['releaseKyc', 'release'],
    ] as const) {
      const lost = await ben.call(call, { id });
      expect(lost.code, call).toBe(Code.REVIEW_CLAIMED);
      expect(lost.data).toMatchObject({ claimedBy: { email: 'ann.compliance@swx.test' } });
      expect(refusals(path)[String(lost.code)], call).toMatch(/another staff member holds the claim/);
    }
    const rejected = await ben.call('rejectKyc', { id, reason: 'Blurred photo' });
    expect(refusals('reject')[String(rejected.code)]).toMatch(/another staff member holds the claim/);
    // Without any claim on the item, deciding answers the other documented refusal.
    await ann.ok('releaseKyc', { id });
    const unclaimed = await ben.call('approveKyc', { id });
    expect(unclaimed.code).toBe(Code.REVIEW_CLAIM_REQUIRED);
    expect(refusals('approve')[String(unclaimed.code)]).toMatch(/no live claim/);
  });
});

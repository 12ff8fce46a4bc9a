import { ADMIN_API_BASE, UPLOAD_FIELD, uploadFileUrl } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, type StaffApi, staffApi } from '../support/api.ts';
import { pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadByApi } from '../support/uploads.ts';

/** The editor's image upload, as the back office sends it: multipart, one part named "file". */
async function uploadContentImage(baseUrl: string, token: string, bytes: Buffer, name = 'diagram.png') {
  const form = new FormData();
  form.append(UPLOAD_FIELD, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const response = await fetch(`${baseUrl}${ADMIN_API_BASE}/content/images`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  return (await response.json()) as { code: number; data: unknown };
}

/**
 * The terms page edited by staff with an image, over HTTP: the image is uploaded through the
 * uploads service, taken by the draft, served to nobody outside staff until the page is published,
 * then to anyone; the attacks (a foreign image, a guessed draft image, a page as an image, a
 * customer's content image) are refused.
 */
describe('content pages and their images over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let anonymous: CustomerApi;
  let editor: StaffApi;
  let customer: Session;
  let termsId: number;

  useServer(
    { staff: [{ email: 'editor@swx.test', role: 'support' }] },
    (s) => ({ server, inbox, anonymous, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    const enrolled = await enrolStaffByApi(
      server.baseUrl,
      'editor@swx.test',
      oneTimePasswords['editor@swx.test'] ?? '',
    );
    editor = staffApi(server, enrolled.token);
    customer = await registerByApi(server, inbox, 'terms.reader@example.com');
    const pages = await editor.ok('listHelpArticles', { type: 'pages' });
    termsId = pages.find((page) => page.slug === 'terms')?.id ?? 0;
  }, 240_000);

  const fileOf = (id: string, token?: string) =>
    fetch(`${server.baseUrl}${uploadFileUrl(id)}`, { headers: token ? { authorization: token } : {} });

  it('refuses a web page sent as an image, and a customer sending a content image', async () => {
    const page = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    expect(await uploadContentImage(server.baseUrl, editor.token, page, 'x.png')).toMatchObject({
      code: 10026,
      data: [{ path: 'file', issue: 'type' }],
    });
    const asCustomer = await uploadByApi(server.baseUrl, customer.token, 'content_image', await pngImage());
    expect(asCustomer).toMatchObject({ code: 10026, data: [{ path: 'purpose', issue: 'purpose' }] });
    // A request with no file is refused as bad input, never a 500.
    const empty = await editor.call('uploadContentImage');
    expect([empty.status, empty.code]).toEqual([400, 10026]);
    // Nobody without a staff session reaches the editor's upload.
    expect(await uploadContentImage(server.baseUrl, customer.token, await pngImage())).toMatchObject({
      code: 401,
    });
  });

  it('refuses a foreign image in a page', async () => {
    const answer = await editor.call('saveHelpDraft', {
      id: termsId,
      language: 'en',
      title: 'Terms of service',
      lines: ['![tracker](https://evil.example/pixel.png)'],
    });
    expect(answer).toMatchObject({ code: 10026, data: [{ path: 'body', issue: 'image' }] });
  });

  it("serves a draft's image to nobody outside staff, then the published page's image to anyone", async () => {
    const uploaded = await uploadContentImage(server.baseUrl, editor.token, await pngImage(480, 240, 8));
    expect(uploaded.code).toBe(200);
    const image = (uploaded.data as { id: string }).id;
    const lines = ['## In short', '', `![How the two books are kept apart](/swx/files/${image})`];
    const draft = await editor.ok('saveHelpDraft', {
      id: termsId,
      language: 'en',
      title: 'Terms of service',
      lines,
    });
    // The Arabic text shows the same image (an image belongs to the page, any language may show it).
    await editor.ok('saveHelpDraft', {
      id: termsId,
      language: 'ar',
      title: 'شروط الخدمة',
      lines: ['## باختصار', '', `![كيف يُفصل الدفتران](/swx/files/${image})`],
    });
    expect(draft.drafts).toContain('en');
    const preview = await editor.ok('previewContentText', { type: 2, language: 'en', lines });
    expect(preview.body).toContain(`(/swx/files/${image})`);

    // The draft's image: a visitor, a customer who guessed the id: nothing.
    expect((await fileOf(image)).status).toBe(401);
    const guessed = await fileOf(image, customer.token);
    expect(((await guessed.json()) as { code: number }).code).toBe(10028);
    const page = await anonymous.call('getContentsById', { id: termsId });
    expect(page.data.body).not.toContain(image);
    // Staff see it in the editor.
    expect((await fileOf(image, editor.token)).status).toBe(200);

    await editor.ok('publishHelpArticle', { id: termsId });
    for (const language of ['en', 'ar']) {
      const read = await anonymous.call('getContentsById', { id: termsId }, { language });
      expect(read.data.body, language).toContain(`](/swx/files/${image})`);
    }
    const served = await fileOf(image);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await fileOf(image, customer.token)).status).toBe(200);
  });
});

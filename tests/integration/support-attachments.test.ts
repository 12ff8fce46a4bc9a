import {
  ADMIN_API_BASE,
  Code,
  CUSTOMER_API_BASE,
  SUPPORT_VISITOR_HEADER,
  supportFileUrl,
  UPLOAD_FIELD,
  uploadFileUrl,
} from '@swx/contract';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi } from '../support/api.ts';
import { type ChatClient, chatSocket } from '../support/chat.ts';
import { oversizePng, pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';

const AGENT = 'agent.files@staff.swx.test';
const FINANCE = 'finance.files@staff.swx.test';

/** A one-page PDF that runs a script when opened (the catalogue's OpenAction) and links out by script. */
async function pdfWithScript(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 400]);
  page.drawText('statement', { x: 40, y: 300, size: 18 });
  const script = doc.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(script));
  const link = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [0, 0, 100, 100],
    A: { S: 'JavaScript', JS: PDFString.of('app.launchURL("https://evil.test")') },
  });
  page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(link)]));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

type Headers = Record<string, string>;
const asVisitor = (token: string): Headers => ({ [SUPPORT_VISITOR_HEADER]: token });
const asToken = (token: string): Headers => ({ authorization: token });

/** The chat's attachments over HTTP and the socket, and the attacks on them. */
describe('support chat attachments', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let passwords: Record<string, string>;
  let ada: Session;
  let bob: Session;
  let agentToken: string;
  let financeToken: string;
  const sockets: ChatClient[] = [];
  useServer(
    {
      staff: [
        { email: AGENT, role: 'support' },
        { email: FINANCE, role: 'finance' },
      ],
    },
    (s) => {
      ({ server, inbox } = s);
      passwords = s.oneTimePasswords;
    },
  );
  beforeAll(async () => {
    agentToken = (await enrolStaffByApi(server.baseUrl, AGENT, passwords[AGENT] ?? '')).token;
    financeToken = (await enrolStaffByApi(server.baseUrl, FINANCE, passwords[FINANCE] ?? '')).token;
    ada = await registerByApi(server, inbox, 'ada.files@example.com');
    bob = await registerByApi(server, inbox, 'bob.files@example.com');
  }, 120_000);
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  /** As the page sends it; `chunked`: no declared length, so the server reads it to learn its size. */
  const upload = async (
    base: string,
    headers: Headers,
    bytes: Buffer,
    name: string,
    type: string,
    chunked = false,
  ) => {
    const form = new FormData();
    form.append(UPLOAD_FIELD, new Blob([new Uint8Array(bytes)], { type }), name);
    const request = new Request(`${server.baseUrl}${base}/support/attachment`, {
      method: 'POST',
      headers,
      body: form,
    });
    const response = chunked
      ? await fetch(request.url, {
          method: 'POST',
          headers: { ...headers, 'content-type': request.headers.get('content-type') ?? '' },
          body: request.body,
          duplex: 'half',
        } as RequestInit)
      : await fetch(request);
    return (await response.json()) as { code: number; data: { id: string; contentType: string } };
  };
  const file = (id: string, headers: Headers) =>
    fetch(`${server.baseUrl}${supportFileUrl(id)}`, { headers }).then(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type') ?? '',
      bytes: Buffer.from(await r.arrayBuffer()),
    }));
  const codeOf = async (id: string, headers: Headers) => {
    const answer = await fetch(`${server.baseUrl}${supportFileUrl(id)}`, { headers });
    return ((await answer.json()) as { code: number }).code;
  };
  const visitor = async (email: string) => {
    const { visitorToken } = await customerApi(server).ok('startSupportVisitor', { email });
    const api = customerApi(server).with({ headers: asVisitor(visitorToken) });
    const { conversation } = await api.ok('openSupportConversation', { language: 'en' });
    const socket = await chatSocket(server, { as: 'customer', visitor: visitorToken });
    sockets.push(socket);
    socket.send({ t: 'join', conversationId: conversation.id });
    return { token: visitorToken, id: conversation.id, socket };
  };
  const sent = (socket: ChatClient, clientId: string) =>
    socket.next((f) => (f.t === 'message' || f.t === 'error') && f.clientId === clientId, clientId);

  it('carries pictures and PDFs from customers, visitors and agents, each served only to its conversation', async () => {
    const agent = await chatSocket(server, { as: 'agent', token: agentToken });
    sockets.push(agent);

    // A customer's picture.
    const adaApi = customerApi(server, ada.token);
    const adaChat = (await adaApi.ok('openSupportConversation', { language: 'en' })).conversation.id;
    const adaSocket = await chatSocket(server, { as: 'customer', token: ada.token });
    sockets.push(adaSocket);
    adaSocket.send({ t: 'join', conversationId: adaChat });
    const picture = await upload(
      CUSTOMER_API_BASE,
      asToken(ada.token),
      await pngImage(),
      'a.png',
      'image/png',
    );
    expect(picture).toMatchObject({ code: 200, data: { contentType: 'image/png' } });
    adaSocket.send({
      t: 'send',
      conversationId: adaChat,
      clientId: 'a1',
      body: 'my screen',
      attachment: picture.data.id,
    });
    expect(await sent(adaSocket, 'a1')).toMatchObject({
      t: 'message',
      message: { attachment: picture.data.id },
    });

    // A visitor's PDF: its script and its link are gone from what is kept.
    const vera = await visitor('vera.files@example.com');
    const pdf = await upload(
      CUSTOMER_API_BASE,
      asVisitor(vera.token),
      await pdfWithScript(),
      's.pdf',
      'application/pdf',
    );
    expect(pdf).toMatchObject({ code: 200, data: { contentType: 'application/pdf' } });
    vera.socket.send({
      t: 'send',
      conversationId: vera.id,
      clientId: 'v1',
      body: 'statement',
      attachment: pdf.data.id,
    });
    expect(await sent(vera.socket, 'v1')).toMatchObject({
      t: 'message',
      message: { attachment: pdf.data.id },
    });
    const kept = await file(pdf.data.id, asVisitor(vera.token));
    expect(kept.status).toBe(200);
    expect(kept.type).toBe('application/pdf');
    expect(kept.bytes.subarray(0, 7).toString('latin1')).toBe('%PDF-1.');
    const rebuilt = await PDFDocument.load(kept.bytes);
    expect(rebuilt.getPageCount()).toBe(1);
    expect(rebuilt.catalog.has(PDFName.of('OpenAction'))).toBe(false);
    expect(rebuilt.getPage(0).node.has(PDFName.of('Annots'))).toBe(false);
    expect(kept.bytes.includes('JavaScript')).toBe(false);

    // An agent's picture in a reply, and another in a private note.
    const reply = await upload(
      ADMIN_API_BASE,
      asToken(agentToken),
      await pngImage(200, 120, 7),
      'r.png',
      'image/png',
    );
    const note = await upload(
      ADMIN_API_BASE,
      asToken(agentToken),
      await pngImage(200, 120, 8),
      'n.png',
      'image/png',
    );
    expect([reply.code, note.code]).toEqual([200, 200]);
    agent.send({
      t: 'send',
      conversationId: adaChat,
      clientId: 'g1',
      body: 'see here',
      attachment: reply.data.id,
    });
    agent.send({
      t: 'send',
      conversationId: adaChat,
      clientId: 'g2',
      body: 'internal',
      private: true,
      attachment: note.data.id,
    });
    expect(await sent(agent, 'g2')).toMatchObject({
      t: 'message',
      message: { private: true, attachment: note.data.id },
    });
    expect(await sent(adaSocket, 'g1')).toMatchObject({
      t: 'message',
      message: { attachment: reply.data.id },
    });

    // Who reads what: the owner side of each conversation, and the agents.
    expect((await file(picture.data.id, asToken(ada.token))).type).toBe('image/png');
    expect((await file(reply.data.id, asToken(ada.token))).type).toBe('image/png');
    for (const id of [picture.data.id, pdf.data.id, reply.data.id, note.data.id])
      expect((await file(id, asToken(agentToken))).status).toBe(200);

    // The attacks: another customer, another visitor, the note kept back, staff of another duty.
    const other = await visitor('otto.files@example.com');
    for (const [id, headers] of [
      [picture.data.id, asToken(bob.token)],
      [reply.data.id, asToken(bob.token)],
      [pdf.data.id, asToken(bob.token)],
      [picture.data.id, asVisitor(other.token)],
      [pdf.data.id, asVisitor(other.token)],
      [pdf.data.id, asToken(ada.token)],
      [note.data.id, asToken(ada.token)],
      [picture.data.id, asToken(financeToken)],
    ] as const)
      expect(await codeOf(id, headers)).toBe(Code.NOT_FOUND);
    expect(await codeOf(pdf.data.id, {})).toBe(Code.SESSION_EXPIRED);
    expect(await codeOf(pdf.data.id, asVisitor('x'.repeat(43)))).toBe(Code.SESSION_EXPIRED);
    // Nor through the uploads' own file route: Bob is not the owner, a visitor has no session there.
    const generic = await fetch(`${server.baseUrl}${uploadFileUrl(picture.data.id)}`, {
      headers: asToken(bob.token),
    });
    expect(((await generic.json()) as { code: number }).code).toBe(Code.NOT_FOUND);
  });

  it("refuses to send someone else's attachment, and files that are not what they claim", async () => {
    const vera = await visitor('vera2.files@example.com');
    const otto = await visitor('otto2.files@example.com');
    const veras = await upload(
      CUSTOMER_API_BASE,
      asVisitor(vera.token),
      await pngImage(),
      'v.png',
      'image/png',
    );
    expect(veras.code).toBe(200);
    otto.socket.send({
      t: 'send',
      conversationId: otto.id,
      clientId: 'o1',
      body: 'mine now',
      attachment: veras.data.id,
    });
    expect(await sent(otto.socket, 'o1')).toEqual({ t: 'error', code: Code.NOT_FOUND, clientId: 'o1' });
    // Nor into her conversation: a conversation is its owner's.
    otto.socket.send({ t: 'send', conversationId: vera.id, clientId: 'o2', body: 'hi' });
    expect(await sent(otto.socket, 'o2')).toEqual({ t: 'error', code: Code.NOT_FOUND, clientId: 'o2' });
    // A customer cannot send an agent's upload either.
    const agents = await upload(ADMIN_API_BASE, asToken(agentToken), await pngImage(), 'g.png', 'image/png');
    const bobChat = (await customerApi(server, bob.token).ok('openSupportConversation', { language: 'en' }))
      .conversation.id;
    const bobSocket = await chatSocket(server, { as: 'customer', token: bob.token });
    sockets.push(bobSocket);
    bobSocket.send({
      t: 'send',
      conversationId: bobChat,
      clientId: 'b1',
      body: 'x',
      attachment: agents.data.id,
    });
    expect(await sent(bobSocket, 'b1')).toEqual({ t: 'error', code: Code.NOT_FOUND, clientId: 'b1' });

    const html = Buffer.from('%PDF-1.4\n<html><script>alert(1)</script></html>\n%%EOF\n', 'latin1');
    const disguised = await upload(
      CUSTOMER_API_BASE,
      asVisitor(vera.token),
      html,
      'x.pdf',
      'application/pdf',
    );
    expect(disguised).toMatchObject({
      code: Code.INVALID_INPUT,
      data: [{ path: 'file', issue: 'polyglot' }],
    });
    const script = Buffer.from('<script>alert(1)</script>', 'latin1');
    expect(
      (await upload(CUSTOMER_API_BASE, asVisitor(vera.token), script, 'x.png', 'image/png')).data,
    ).toEqual([{ path: 'file', issue: 'type' }]);
    const appended = Buffer.concat([await pdfWithScript(), Buffer.from('PK\x03\x04 trailing', 'latin1')]);
    expect(
      (await upload(CUSTOMER_API_BASE, asVisitor(vera.token), appended, 'y.pdf', 'application/pdf')).data,
    ).toEqual([{ path: 'file', issue: 'polyglot' }]);
    const big = Buffer.concat([await oversizePng(), await oversizePng(), await oversizePng()]);
    expect(
      (await upload(CUSTOMER_API_BASE, asVisitor(vera.token), big, 'big.png', 'image/png', true)).code,
    ).toBe(Code.FILE_TOO_LARGE);
    expect((await upload(CUSTOMER_API_BASE, {}, await pngImage(), 'n.png', 'image/png')).code).toBe(
      Code.SESSION_EXPIRED,
    );
    expect(
      (await upload(ADMIN_API_BASE, asToken(financeToken), await pngImage(), 'f.png', 'image/png')).code,
    ).toBe(Code.FORBIDDEN);
  });
});

import { type RunningServer, startServer } from './server.ts';
import { type Inbox, startInbox } from './smtp.ts';

/** A real server process whose mail goes to a real SMTP receiver in the test. */
export async function startServerWithInbox(
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; inbox: Inbox; stop: () => Promise<void> }> {
  const inbox = await startInbox();
  const server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}`, ...env });
  return {
    server,
    inbox,
    async stop() {
      await server.stop();
      await inbox.close();
    },
  };
}

export type Session = { token: string; userInfo: { id: number; userName: string } };

/** Registers through the API as a customer would: a code by mail, then the registration call. */
export async function registerByApi(
  server: RunningServer,
  inbox: Inbox,
  email: string,
  password = 'long enough pw',
): Promise<Session> {
  const post = (path: string, body: unknown) =>
    fetch(`${server.baseUrl}/swx/customer${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ code: number; data: unknown }>);
  const sent = await post('/login/sendCode', { email, purpose: 'register' });
  if (sent.code !== 200) throw new Error(`sendCode answered ${sent.code}`);
  const registered = await post('/login/register', {
    userName: email,
    password,
    password2: password,
    code: await inbox.codeFor(email),
  });
  if (registered.code !== 200) throw new Error(`register answered ${registered.code}`);
  return registered.data as Session;
}

/** Marks every notice of a customer read through the API, so no notice dialog blocks a page. */
export async function readAllNotices(baseUrl: string, token: string): Promise<void> {
  const base = `${baseUrl}/swx/customer/user`;
  const list = (await (
    await fetch(`${base}/getNoticeList`, { headers: { authorization: token } })
  ).json()) as {
    data: { id: number }[];
  };
  for (const notice of list.data)
    await fetch(`${base}/readNotice?noticeId=${notice.id}`, { headers: { authorization: token } });
}

import { customerApi } from './api.ts';
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
  inviteCode?: string,
): Promise<Session> {
  const anonymous = customerApi(server);
  await anonymous.ok('sendCode', { email, purpose: 'register' });
  const registered = await anonymous.ok('register', {
    userName: email,
    password,
    password2: password,
    code: await inbox.codeFor(email),
    ...(inviteCode ? { inviteCode } : {}),
  });
  return registered;
}

/** Marks every notice of a customer read through the API, so no notice dialog blocks a page. */
export async function readAllNotices(server: RunningServer | string, token: string): Promise<void> {
  const customer = customerApi(server, token);
  for (const notice of await customer.ok('getNoticeList'))
    await customer.ok('readNotice', { noticeId: notice.id });
}

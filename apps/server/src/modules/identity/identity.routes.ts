import { calls } from '@swx/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS } from './identity.devices.ts';
import type { Client, IdentityService, LoginChallenge, LoginResult } from './identity.service.ts';
import { SOCIAL_BINDING_COOKIE, SOCIAL_FLOW_TTL_SECONDS } from './identity.social.ts';

/** Who is asking: address, browser, language, device token, and the origin the links in mail use. */
export const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
  language: request.language,
  device: cookieOf(request, DEVICE_COOKIE),
  origin: `${request.protocol}://${request.host}`,
});

function cookieOf(request: FastifyRequest, name: string): string | null {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * After a sign-in that opened a session (registration, password, second step, social): the
 * device cookie, so this browser keeps signing in while the account is under attack. HttpOnly,
 * SameSite=Strict, only sent to the login calls.
 */
function rememberDevice(
  identity: IdentityService,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: LoginResult | LoginChallenge,
): void {
  if (!('token' in answer)) return;
  const token = identity.deviceToken(answer.userInfo.id, cookieOf(request, DEVICE_COOKIE));
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${token}; Path=/swx/customer/login/; Max-Age=${DEVICE_TTL_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
  );
}

/** The social sign-in binding cookie: HttpOnly, SameSite=Lax, only for the login calls. */
function bindingCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SOCIAL_BINDING_COOKIE}=${value}; Path=/swx/customer/login/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

function bindingOf(request: FastifyRequest): string | null {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === SOCIAL_BINDING_COOKIE && value && /^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return null;
}

export function identityRoutes(app: FastifyInstance, identity: IdentityService): void {
  mountCall(app, calls.checkUserNameOrPhone, async ({ query }) => ({
    available:
      query.areaCode !== undefined && query.phone !== undefined
        ? await identity.isPhoneAvailable(query.areaCode, query.phone)
        : await identity.isAvailable(query.userName ?? ''),
  }));
  mountCall(app, calls.sendCode, ({ body, request }) => identity.sendCode(body, clientOf(request)));
  mountCall(app, calls.sendSmsCode, ({ body, request }) => identity.sendSmsCode(body, clientOf(request)));
  mountCall(app, calls.register, async ({ body, request, reply }) => {
    const answer = await identity.register(body, clientOf(request));
    rememberDevice(identity, request, reply, answer);
    return answer;
  });
  mountCall(app, calls.resetPassword, ({ body, request }) => identity.resetPassword(body, clientOf(request)));
  mountCall(app, calls.lockAccount, ({ body }) => identity.lockAccount(body.token));
  mountCall(app, calls.login, async ({ body, request, reply }) => {
    const answer = await identity.login(body, clientOf(request));
    rememberDevice(identity, request, reply, answer);
    return answer;
  });
  mountCall(app, calls.loginTotp, async ({ body, request, reply }) => {
    const answer = await identity.loginTotp(body, clientOf(request));
    rememberDevice(identity, request, reply, answer);
    return answer;
  });
  mountCall(app, calls.listSocialProviders, async () => identity.socialProviders());
  mountCall(app, calls.loginByProvider, async ({ params, request, reply }) => {
    const started = await identity.startSocialLogin(
      params.provider,
      `${request.protocol}://${request.host}`,
      clientOf(request),
    );
    reply.header('set-cookie', bindingCookie(request, started.binding, SOCIAL_FLOW_TTL_SECONDS));
    return { authorizationUrl: started.authorizationUrl };
  });
  mountCall(app, calls.loginByProviderCallback, async ({ params, body, request, reply }) => {
    const answer = await identity.finishSocialLogin(
      params.provider,
      body,
      bindingOf(request),
      clientOf(request),
    );
    reply.header('set-cookie', bindingCookie(request, '', 0));
    rememberDevice(identity, request, reply, answer);
    return answer;
  });
  mountCall(app, calls.logout, async ({ customer }) => {
    await identity.logout(customer);
    return null;
  });
  mountCall(app, calls.repassword, ({ customer, body, request }) =>
    identity.changePassword(customer, body, clientOf(request)),
  );
  mountCall(app, calls.listSessions, ({ customer }) => identity.listSessions(customer));
  mountCall(app, calls.revokeSession, ({ customer, body }) => identity.revokeSession(customer, body.id));
  mountCall(app, calls.getTotpStatus, ({ customer }) => identity.totpStatus(customer));
  mountCall(app, calls.setupTotp, ({ customer }) => identity.setupTotp(customer));
  mountCall(app, calls.enableTotp, ({ customer, body, request }) =>
    identity.enableTotp(customer, body, clientOf(request)),
  );
  mountCall(app, calls.disableTotp, ({ customer, body, request }) =>
    identity.disableTotp(customer, body, clientOf(request)),
  );
  mountCall(app, calls.getUserInfo, async ({ customer }) => ({
    id: customer.userId,
    userName: customer.userName,
  }));
}

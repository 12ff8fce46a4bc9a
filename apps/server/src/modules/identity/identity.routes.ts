import { calls } from '@swx/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { Client, IdentityService } from './identity.service.ts';

const clientOf = (request: FastifyRequest): Client => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
  language: request.language,
});

export function identityRoutes(app: FastifyInstance, identity: IdentityService): void {
  mountCall(app, calls.checkUserNameOrPhone, async ({ query }) => ({
    available: await identity.isAvailable(query.userName),
  }));
  mountCall(app, calls.sendCode, ({ body, request }) => identity.sendCode(body, clientOf(request)));
  mountCall(app, calls.register, ({ body, request }) => identity.register(body, clientOf(request)));
  mountCall(app, calls.resetPassword, ({ body }) => identity.resetPassword(body));
  mountCall(app, calls.login, ({ body, request }) => identity.login(body, clientOf(request)));
  mountCall(app, calls.loginTotp, ({ body, request }) => identity.loginTotp(body, clientOf(request)));
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

import { adminCalls, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { InvitesService } from './invites.service.ts';

export function invitesRoutes(app: FastifyInstance, invites: InvitesService, staff: StaffService): void {
  // Customer calls: the caller's own code, friends and rewards only.
  mountCall(app, calls.getMyInvite, ({ customer }) => invites.myInvite(customer.userId));
  mountCall(app, calls.listInvitedFriends, ({ customer, query }) =>
    invites.friends(customer.userId, query.before),
  );
  mountCall(app, calls.listInviteRewards, ({ customer, query }) =>
    invites.rewards(customer.userId, query.before),
  );
  mountCall(app, calls.setInviteRebate, ({ customer, body }) =>
    invites.setRebate(customer.userId, body.rebateBps),
  );

  // Staff calls: the terms (a change is audited with it), links, freezes (audited), payouts.
  mountStaffCall(app, staff, adminCalls.getInviteSettings, () => invites.settings());
  mountStaffCall(app, staff, adminCalls.updateInviteSettings, ({ staff: session, body }) =>
    invites.updateSettings(session.staffId, body),
  );
  mountStaffCall(app, staff, adminCalls.listInviteLinks, async ({ staff: session, query }) => {
    await staff.record(session, 'invites.links.viewed', 'invites', { search: query.search ?? null });
    return invites.links(query);
  });
  mountStaffCall(app, staff, adminCalls.freezeInviteLink, ({ staff: session, body }) =>
    invites.freeze(session.staffId, body),
  );
  mountStaffCall(app, staff, adminCalls.listInvitePayouts, ({ query }) => invites.payouts(query.before));
}

import { adminCalls, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { FourEyesSettingsService } from './params.fourEyes.ts';
import type { ParamsService } from './params.service.ts';

export function paramsRoutes(
  app: FastifyInstance,
  params: ParamsService,
  staff: StaffService,
  fourEyes: FourEyesSettingsService,
): void {
  mountCall(app, calls.getParamByKey, ({ params: p }) => params.getPublic(p.key));

  // The four-eyes thresholds (admins only): one proposes, another approves.
  mountStaffCall(app, staff, adminCalls.getFourEyes, () => fourEyes.settings());
  mountStaffCall(app, staff, adminCalls.proposeFourEyes, ({ staff: session, body }) =>
    fourEyes.propose(session, body),
  );
  mountStaffCall(app, staff, adminCalls.approveFourEyes, ({ staff: session, params: p }) =>
    fourEyes.approve(session, p.id),
  );
  mountStaffCall(app, staff, adminCalls.rejectFourEyes, ({ staff: session, params: p }) =>
    fourEyes.reject(session, p.id),
  );
}

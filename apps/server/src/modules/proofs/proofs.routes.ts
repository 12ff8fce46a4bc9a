import { Code, calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError, mountCall } from '../../platform/http.ts';
import type { ProofsService } from './proofs.service.ts';

/** The public roots, and a customer's own branch (never another customer's: the session names the leaf). */
export function proofsRoutes(app: FastifyInstance, proofs: ProofsService): void {
  mountCall(app, calls.getProofRoots, ({ query }) => proofs.roots(query.day));
  mountCall(app, calls.getMyProofBranch, async ({ customer, query }) => {
    const branch = await proofs.branch(customer.userId, query.day, query.asset);
    if (!branch) throw new ApiError(Code.NOT_FOUND);
    return branch;
  });
}

import { adminCalls, Code, calls, type depositReviewCalls, type withdrawalReviewCalls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import { mountReview } from '../review/review.routes.ts';
import type { ReviewQueue } from '../review/review.service.ts';
import { mountStaffCall } from '../staff/staff.http.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { WalletService } from './wallet.service.ts';

/** The wallet's two staff review queues (wallet.review.ts). */
type WalletReviews = {
  deposits: ReviewQueue<typeof depositReviewCalls>;
  withdrawals: ReviewQueue<typeof withdrawalReviewCalls>;
};

export function walletRoutes(
  app: FastifyInstance,
  wallet: WalletService,
  staff: StaffService,
  reviews: WalletReviews,
): void {
  customerCalls(app, wallet);
  staffCalls(app, wallet, staff, reviews);
}

/** Customer calls, all in the request's book (the demo book answers 10043). */
function customerCalls(app: FastifyInstance, wallet: WalletService): void {
  const { deposits, withdrawals, networks } = wallet;
  mountCall(app, calls.listNetworks, () => networks.offered());
  mountCall(app, calls.getDepositAddress, ({ customer, query, request }) =>
    deposits.address(request.book, customer.userId, query.network),
  );
  mountCall(
    app,
    calls.recharge,
    ({ customer, body, request }) => deposits.declare(request.book, customer.userId, body),
    {
      successCode: Code.RECHARGE_SUBMITTED,
    },
  );
  mountCall(app, calls.listRecharge, ({ customer, request }) => deposits.list(request.book, customer.userId));
  mountCall(app, calls.listWithdrawalAddresses, ({ customer, request }) =>
    withdrawals.addresses(request.book, customer.userId),
  );
  mountCall(app, calls.addWithdrawalAddress, ({ customer, body, request }) =>
    withdrawals.addAddress(request.book, customer.userId, body, {
      ip: request.ip,
      userAgent: String(request.headers['user-agent'] ?? ''),
      language: request.language,
      origin: `${request.protocol}://${request.host}`,
    }),
  );
  mountCall(app, calls.removeWithdrawalAddress, ({ customer, params, request }) =>
    withdrawals.removeAddress(request.book, customer.userId, params.id),
  );
  mountCall(app, calls.chainBalance, ({ query }) => wallet.chainBalance(query.address as `0x${string}`));
  mountCall(app, calls.withdrawalLimits, ({ customer, request }) =>
    withdrawals.limits(request.book, customer.userId),
  );
  mountCall(app, calls.quoteWithdrawal, ({ customer, body, request }) =>
    withdrawals.quote(request.book, customer.userId, body),
  );
  mountCall(app, calls.sendWithdrawalCode, ({ customer, body, request }) =>
    withdrawals.sendCode(request.book, customer.userId, request.language, body.quoteId),
  );
  mountCall(
    app,
    calls.withdrawal,
    ({ customer, body, request }) => withdrawals.commit(request.book, customer.userId, body),
    { successCode: Code.WITHDRAWAL_SUBMITTED },
  );
  mountCall(app, calls.listWithdrwal, ({ customer, request }) =>
    withdrawals.list(request.book, customer.userId),
  );
}

/** Staff calls: networks, the treasury, and the two review queues (wallet.review.ts). */
function staffCalls(
  app: FastifyInstance,
  wallet: WalletService,
  staff: StaffService,
  reviews: WalletReviews,
): void {
  const { networks } = wallet;
  mountStaffCall(app, staff, adminCalls.listNetworksAdmin, async ({ staff: session }) => {
    await staff.record(session, 'wallet.networks.viewed', 'networks', {});
    return (await networks.all()).map((row) => networks.wire(row));
  });
  mountStaffCall(app, staff, adminCalls.updateNetwork, async ({ staff: session, body }) =>
    networks.wire(await networks.update(`staff:${session.staffId}`, body)),
  );
  mountStaffCall(app, staff, adminCalls.treasury, async ({ staff: session }) => {
    await staff.record(session, 'wallet.treasury.viewed', 'treasury', {});
    return wallet.treasury();
  });
  mountReview(app, staff, reviews.deposits);
  mountReview(app, staff, reviews.withdrawals);
}

import { z } from 'zod/mini';
import { wireId } from '../ids.ts';
import {
  addWithdrawalAddressBody,
  chainBalance,
  chainBalanceQuery,
  deposit,
  depositAddress,
  network,
  networkQuery,
  rechargeBody,
  sentCodeAnswer,
  withdrawal,
  withdrawalAddress,
  withdrawalBody,
  withdrawalCodeBody,
  withdrawalLimit,
  withdrawalQuote,
  withdrawalQuoteBody,
} from '../wallet.ts';
import { type CallDefinition, call } from './define.ts';

/**
 * Deposits and withdrawals (`modules/wallet`): the live book only; in the demo book each answers
 * 10043. Spec §7 names recharge, withdrawal, listRecharge and listWithdrwal; the rest are ours.
 */
export const walletCalls = {
  listNetworks: call({
    method: 'GET',
    path: '/wallet/networks',
    summary:
      'The enabled networks: deposit minimum, confirmations and their times, withdrawal fee rate and limits',
    auth: true,
    status: 'live',
    data: z.array(network),
  }),
  getDepositAddress: call({
    method: 'GET',
    path: '/wallet/depositAddress',
    summary: 'My deposit address on a network (derived from the platform public key, mine alone)',
    auth: true,
    status: 'live',
    query: networkQuery,
    data: depositAddress,
  }),
  recharge: call({
    method: 'POST',
    path: '/user/recharge',
    summary:
      'Declare a deposit with a payment proof (upload purpose deposit_proof); answers 20002: staff review it. Refused below the network minimum and for a transaction hash already seen',
    auth: true,
    status: 'live',
    body: rechargeBody,
    data: deposit,
  }),
  listRecharge: call({
    method: 'GET',
    path: '/user/listRecharge',
    summary:
      'My deposits, newest first: seen on chain (confirming, credited, available) and declared by proof',
    auth: true,
    status: 'live',
    data: z.array(deposit),
  }),
  listWithdrawalAddresses: call({
    method: 'GET',
    path: '/wallet/addresses',
    summary: 'My withdrawal addresses with the time each can first be used',
    auth: true,
    status: 'live',
    data: z.array(withdrawalAddress),
  }),
  addWithdrawalAddress: call({
    method: 'POST',
    path: '/wallet/addresses',
    summary:
      "Add a withdrawal address (checked against the network format; with a signature, proved the customer's own); usable 24 hours later",
    auth: true,
    status: 'live',
    body: addWithdrawalAddressBody,
    data: withdrawalAddress,
  }),
  removeWithdrawalAddress: call({
    method: 'POST',
    path: '/wallet/addresses/:id/remove',
    summary: 'Remove one of my withdrawal addresses',
    auth: true,
    status: 'live',
    params: z.object({ id: wireId() }),
    data: z.null(),
  }),
  chainBalance: call({
    method: 'GET',
    path: '/wallet/chainBalance',
    summary:
      "What the platform's chain holds at a public address (the self-custody wallet's): ETH and USDT, read-only",
    auth: true,
    status: 'live',
    query: chainBalanceQuery,
    data: chainBalance,
  }),
  withdrawalLimits: call({
    method: 'GET',
    path: '/wallet/limits',
    summary:
      'My withdrawal limit per asset for today (UTC) and what is used of it; higher once my identity is verified',
    auth: true,
    status: 'live',
    data: z.array(withdrawalLimit),
  }),
  quoteWithdrawal: call({
    method: 'POST',
    path: '/wallet/quoteWithdrawal',
    summary:
      'The exact figures of a withdrawal before it is committed: amount, fee, amount received; valid 60 seconds',
    auth: true,
    status: 'live',
    body: withdrawalQuoteBody,
    data: withdrawalQuote,
  }),
  sendWithdrawalCode: call({
    method: 'POST',
    path: '/wallet/sendWithdrawalCode',
    summary:
      'Mail me a code to confirm the withdrawal of a pending quote (when two-step sign-in is not enabled): the mail names its amount, asset, network and address, and the code confirms only those figures; an expired quote answers 10032',
    auth: true,
    status: 'live',
    body: withdrawalCodeBody,
    data: sentCodeAnswer,
  }),
  withdrawal: call({
    method: 'POST',
    path: '/user/withdrawal',
    summary: 'Commit a quoted withdrawal with a fresh code; the amount is held and staff review it (20003)',
    auth: true,
    status: 'live',
    body: withdrawalBody,
    data: withdrawal,
  }),
  listWithdrwal: call({
    method: 'GET',
    path: '/user/listWithdrwal',
    summary: 'My withdrawals, newest first, with state and transaction hash (spelling as in the product)',
    auth: true,
    status: 'live',
    data: z.array(withdrawal),
  }),
} as const satisfies Record<string, CallDefinition>;

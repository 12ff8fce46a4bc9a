import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { Networks } from './Networks.tsx';
import { Treasury } from './Treasury.tsx';
import { DepositQueue, DepositReviewPage, WithdrawalQueue, WithdrawalReviewPage } from './WalletQueues.tsx';
import { WALLET_TEXT } from './wallet.text.ts';

/** Deposits and withdrawals: their review queues, the networks and the treasury. */
export const walletSections: readonly Section[] = [
  {
    label: (language) => WALLET_TEXT[language].nav.deposits,
    path: '/deposits',
    roles: adminCalls.depositQueue.roles,
    screens: [
      { path: '/deposits', Screen: DepositQueue },
      { path: '/deposits/:id', Screen: DepositReviewPage },
    ],
  },
  {
    label: (language) => WALLET_TEXT[language].nav.withdrawals,
    path: '/withdrawals',
    roles: adminCalls.withdrawalQueue.roles,
    screens: [
      { path: '/withdrawals', Screen: WithdrawalQueue },
      { path: '/withdrawals/:id', Screen: WithdrawalReviewPage },
    ],
  },
  {
    label: (language) => WALLET_TEXT[language].nav.networks,
    path: '/networks',
    roles: adminCalls.listNetworksAdmin.roles,
    screens: [{ path: '/networks', Screen: Networks }],
  },
  {
    label: (language) => WALLET_TEXT[language].nav.treasury,
    path: '/treasury',
    roles: adminCalls.treasury.roles,
    screens: [{ path: '/treasury', Screen: Treasury }],
  },
];

import type { Deposit, Withdrawal } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { walletQueries } from '../transfers/queries.ts';
import {
  DepositProgress,
  StateWord,
  TxHash,
  useNetworkWords,
  useWalletFormat,
  WalletLinks,
  WalletPage,
} from './parts.tsx';

/** One record as a card: its amount and state, then its facts (a card reads well at 320 px too). */
function RecordCard({
  amount,
  state,
  facts,
  data,
}: {
  amount: string;
  state: ReactNode;
  facts: [string, ReactNode, string?][];
  data: Record<string, string | number>;
}) {
  return (
    <li className="card wallet-record" {...data}>
      <div className="product-record-head wallet-record-head">
        <strong className="wallet-record-amount">{amount}</strong>
        {state}
      </div>
      <dl className="product-fact-grid">
        {facts.map(([label, value, name]) => (
          <div key={label} data-fact={name}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

/** A deposit followed on chain: seen by the platform, or declared with a proof that the chain confirmed. */
const onChain = (d: Deposit) =>
  d.source === 'chain' ||
  d.state === 'confirming' ||
  d.state === 'credited' ||
  (d.state === 'available' && d.confirmations > 0);

/** Names a record's network in words ("USDT on Ethereum (ERC-20)"). */
type NetworkWords = (id: string, asset: string) => string;

function DepositCard({ deposit: d, network }: { deposit: Deposit; network: NetworkWords }) {
  const { t, i18n } = useTranslation();
  const f = useWalletFormat();
  const progress = <DepositProgress deposit={d} />;
  // The platform's own reasons in words; a staff member's as written.
  const reasonKey = `wallet.records.reasons.${d.reason}`;
  const reason = d.reason && i18n.exists(reasonKey) ? t(reasonKey) : d.reason;
  return (
    <RecordCard
      data={{ 'data-deposit': d.id, 'data-state': d.state }}
      amount={f.money(d.amount, d.asset)}
      state={<StateWord kind="deposit" state={d.state} />}
      facts={[
        [t('wallet.records.date'), f.date(d.createdAt)],
        [t('wallet.network'), network(d.network, d.asset), 'network'],
        ...(onChain(d)
          ? ([
              [
                t('wallet.records.confirmations'),
                d.state === 'confirming' || d.state === 'credited' || d.state === 'below_minimum'
                  ? progress
                  : t('wallet.records.ofTotal', {
                      done: f.count(d.confirmations),
                      total: f.count(d.unlockConfirmations),
                    }),
                'confirmations',
              ],
            ] as [string, ReactNode, string][])
          : ([[t('wallet.records.confirmations'), t('wallet.records.byProof')]] as [string, ReactNode][])),
        ...(reason ? ([[t('wallet.records.reason'), reason]] as [string, ReactNode][]) : []),
        [t('wallet.records.txHash'), <TxHash key="hash" hash={d.txHash} />, 'txHash'],
      ]}
    />
  );
}

function WithdrawalCard({ withdrawal: w, network }: { withdrawal: Withdrawal; network: NetworkWords }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  return (
    <RecordCard
      data={{ 'data-withdrawal': w.id, 'data-state': w.state }}
      amount={f.money(w.amount, w.asset)}
      state={<StateWord kind="withdrawal" state={w.state} />}
      facts={[
        [t('wallet.records.date'), f.date(w.createdAt)],
        [t('wallet.network'), network(w.network, w.asset), 'network'],
        [
          t('wallet.records.fee'),
          <span key="fee" data-value={w.fee}>
            {f.money(w.fee, w.asset)}
          </span>,
          'fee',
        ],
        [
          t('wallet.records.receive'),
          <span key="receive" data-value={w.receive}>
            {f.money(w.receive, w.asset)}
          </span>,
          'receive',
        ],
        [
          t('wallet.records.address'),
          <code key="address" dir="ltr" className="wallet-address">
            {w.address}
          </code>,
        ],
        ...(w.state === 'sent'
          ? ([
              [
                t('wallet.records.confirmations'),
                t('wallet.records.confirmationsSoFar', { done: f.count(w.confirmations) }),
              ],
            ] as [string, ReactNode][])
          : []),
        ...(w.reason ? ([[t('wallet.records.reason'), w.reason]] as [string, ReactNode][]) : []),
        [t('wallet.records.txHash'), <TxHash key="hash" hash={w.txHash} />, 'txHash'],
      ]}
    />
  );
}

function DepositRecord({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const query = useQuery(walletQueries.deposits(userId));
  const network = useNetworkWords(userId);
  if (query.isPending || !network) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={t('wallet.records.noDeposits')} />;
  return (
    <ol className="product-list wallet-records" aria-label={t('title.deposits')} data-testid="deposit-record">
      {query.data.map((d) => (
        <DepositCard key={d.id} deposit={d} network={network} />
      ))}
    </ol>
  );
}

function WithdrawalRecord({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const query = useQuery(walletQueries.withdrawals(userId));
  const network = useNetworkWords(userId);
  if (query.isPending || !network) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={t('wallet.records.noWithdrawals')} />;
  return (
    <ol
      className="product-list wallet-records"
      aria-label={t('title.withdrawals')}
      data-testid="withdrawal-record"
    >
      {query.data.map((w) => (
        <WithdrawalCard key={w.id} withdrawal={w} network={network} />
      ))}
    </ol>
  );
}

/** My deposits (/profile/deposits): state, amount, confirmations and transaction hash. */
export function Deposits() {
  const { t } = useTranslation();
  return (
    <WalletPage title={t('title.deposits')}>
      {(userId) => (
        <div className="wallet-page">
          <DepositRecord userId={userId} />
          <WalletLinks current="/profile/deposits" />
        </div>
      )}
    </WalletPage>
  );
}

/** My withdrawals (/profile/withdrawals): amount, fee, received, state and transaction hash. */
export function Withdrawals() {
  const { t } = useTranslation();
  return (
    <WalletPage title={t('title.withdrawals')}>
      {(userId) => (
        <div className="wallet-page">
          <WithdrawalRecord userId={userId} />
          <WalletLinks current="/profile/withdrawals" />
        </div>
      )}
    </WalletPage>
  );
}

import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { DepositProgress, StateWord, TxHash, useWalletFormat, WalletLinks, WalletPage } from './parts.tsx';
import { walletQueries } from './queries.ts';

/** A scrollable table of a record, reachable by keyboard. */
function RecordTable({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
    <section className="table-scroll card" aria-label={label} tabIndex={0}>
      <table className="data-table wallet-table" data-testid={testId}>
        {children}
      </table>
    </section>
  );
}

function DepositRecord({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const query = useQuery(walletQueries.deposits(userId));
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={t('wallet.records.noDeposits')} />;
  return (
    <RecordTable label={t('title.deposits')} testId="deposit-record">
      <thead>
        <tr>
          <th scope="col">{t('wallet.records.date')}</th>
          <th scope="col">{t('wallet.records.amount')}</th>
          <th scope="col">{t('wallet.records.state')}</th>
          <th scope="col">{t('wallet.records.confirmations')}</th>
          <th scope="col">{t('wallet.records.txHash')}</th>
        </tr>
      </thead>
      <tbody>
        {query.data.map((d) => (
          <tr key={d.id} data-deposit={d.id} data-state={d.state}>
            <td>{f.date(d.createdAt)}</td>
            <td className="num">{f.money(d.amount, d.asset)}</td>
            <td>
              <StateWord kind="deposit" state={d.state} />
              {d.reason ? <span className="small muted"> {d.reason}</span> : null}
              <br />
              <span className="small">
                <DepositProgress deposit={d} />
              </span>
            </td>
            <td className="num">
              {d.source === 'chain'
                ? t('wallet.records.ofTotal', {
                    done: f.count(d.confirmations),
                    total: f.count(d.unlockConfirmations),
                  })
                : t('wallet.records.byProof')}
            </td>
            <td>
              <TxHash hash={d.txHash} />
            </td>
          </tr>
        ))}
      </tbody>
    </RecordTable>
  );
}

function WithdrawalRecord({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const f = useWalletFormat();
  const query = useQuery(walletQueries.withdrawals(userId));
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={t('wallet.records.noWithdrawals')} />;
  return (
    <RecordTable label={t('title.withdrawals')} testId="withdrawal-record">
      <thead>
        <tr>
          <th scope="col">{t('wallet.records.date')}</th>
          <th scope="col">{t('wallet.records.amount')}</th>
          <th scope="col">{t('wallet.records.fee')}</th>
          <th scope="col">{t('wallet.records.receive')}</th>
          <th scope="col">{t('wallet.records.state')}</th>
          <th scope="col">{t('wallet.records.address')}</th>
          <th scope="col">{t('wallet.records.txHash')}</th>
        </tr>
      </thead>
      <tbody>
        {query.data.map((w) => (
          <tr key={w.id} data-withdrawal={w.id} data-state={w.state}>
            <td>{f.date(w.createdAt)}</td>
            <td className="num" data-value={w.amount}>
              {f.money(w.amount, w.asset)}
            </td>
            <td className="num" data-fact="fee" data-value={w.fee}>
              {f.money(w.fee, w.asset)}
            </td>
            <td className="num" data-value={w.receive}>
              {f.money(w.receive, w.asset)}
            </td>
            <td>
              <StateWord kind="withdrawal" state={w.state} />
              {w.state === 'sent' ? (
                <span className="small">
                  {' '}
                  {t('wallet.records.confirmationsSoFar', { done: f.count(w.confirmations) })}
                </span>
              ) : null}
              {w.reason ? <span className="small muted"> {w.reason}</span> : null}
            </td>
            <td>
              <code dir="ltr" className="wallet-address" title={w.address}>
                {w.address.length > 16 ? `${w.address.slice(0, 8)}…${w.address.slice(-6)}` : w.address}
              </code>
            </td>
            <td>
              <TxHash hash={w.txHash} />
            </td>
          </tr>
        ))}
      </tbody>
    </RecordTable>
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

import type { BalancesData } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatMoney } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { CardTable } from '../../ui/CardTable.tsx';
import { DialogButtons } from '../../ui/Field.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { ledgerQueries } from './queries.ts';
import { ledgerTexts } from './texts.ts';
import './ledger.css';

function ResetDemo({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [message, setMessage] = useState('');
  const [refused, setRefused] = useState(false);
  const reset = useMutation({
    mutationFn: () => callApi('resetDemo'),
    onSuccess: (data) => {
      queryClient.setQueryData(ledgerQueries.balances(userId, 'demo').queryKey, data);
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.transactionLists });
      setRefused(false);
      setMessage(t('balance.resetDone'));
      dialog.current?.close();
    },
    onError: (error) => {
      // The server's refusal in the reader's language (10033 while positions are open).
      setRefused(true);
      setMessage(error instanceof ApiFailure ? error.message : t('state.error'));
      dialog.current?.close();
    },
  });
  return (
    <>
      <button type="button" className="button ghost" onClick={() => dialog.current?.showModal()}>
        {t('balance.reset')}
      </button>
      <p role="status" className={refused && message ? 'form-error' : 'book-message'}>
        {message}
      </p>
      <dialog ref={dialog} className="modal" aria-labelledby={titleId}>
        <div className="modal-body">
          <h2 id={titleId}>{t('balance.reset')}</h2>
          <p>{t('balance.resetConfirm')}</p>
          <DialogButtons
            dialog={dialog}
            cancel={t('balance.cancel')}
            confirm={t('balance.confirm')}
            disabled={reset.isPending}
            onConfirm={() => reset.mutate()}
          />
        </div>
      </dialog>
    </>
  );
}

/** Each asset: what is available, what is held (`HeldBy` says by what), the total, its USDT value. */
function BalanceRows({ rows }: { rows: BalancesData['balances'] }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <CardTable label={t('title.balance')}>
      <thead>
        <tr>
          <th scope="col">{t('balance.asset')}</th>
          <th scope="col">{t('balance.available')}</th>
          <th scope="col">{t('balance.held')}</th>
          <th scope="col">{t('balance.total')}</th>
          <th scope="col">{t('balance.valueUsdt')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.asset} data-asset={row.asset}>
            <th scope="row">{row.asset}</th>
            <td className="num">{formatMoney(language, row.available, row.asset)}</td>
            <td className="num">{formatMoney(language, row.held, row.asset)}</td>
            <td className="num">{formatMoney(language, row.balance, row.asset)}</td>
            <td className="num">
              {row.valueUsdt !== null ? (
                formatMoney(language, row.valueUsdt, 'USDT')
              ) : (
                <span title={t('balance.valuePending')}>
                  —<span className="visually-hidden"> {t('balance.valuePending')}</span>
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}

/**
 * What holds the money shown as held, asset by asset, as the ledger says it (a deposit waiting for
 * its confirmations, a withdrawal on its way, the margin of open positions, earn, smart plans):
 * the parts add up to the held figure, each shown exactly.
 */
function HeldBy({ rows }: { rows: BalancesData['balances'] }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const held = rows.filter((row) => row.heldBy.length > 0);
  if (held.length === 0)
    return (
      <p className="muted small" data-testid="held-none">
        {t('held.none')}
      </p>
    );
  return (
    <section className="held-by" aria-labelledby="held-by-title" data-testid="held-by">
      <h3 id="held-by-title">{t('held.title')}</h3>
      {held.map((row) => (
        <dl key={row.asset} className="facts" data-asset={row.asset} aria-label={row.asset}>
          {row.heldBy.map((part) => (
            <div key={part.reason} data-reason={part.reason} data-amount={part.amount}>
              <dt>{t(`held.reason.${part.reason}`)}</dt>
              <dd>
                <span dir="ltr">{`${formatMoney(language, part.amount, row.asset)} ${row.asset}`}</span>
              </dd>
            </div>
          ))}
        </dl>
      ))}
    </section>
  );
}

const MONEY_LINKS = [
  ['/profile/transactions', 'transactions'],
  ['/profile/deposit', 'deposit'],
  ['/profile/withdraw', 'withdraw'],
  ['/profile/deposits', 'deposits'],
  ['/profile/withdrawals', 'withdrawals'],
] as const;

/** Where the money's screens are: transactions, deposit, withdraw and their lists. */
function MoneyLinks() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('balance.moneyLinks')}>
      <ul className="balance-links">
        {MONEY_LINKS.map(([to, title]) => (
          <li key={to}>
            <Link to={to}>{t(`title.${title}`)}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function BalanceTable({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const query = useQuery(ledgerQueries.balances(userId, book));
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  const unpriced = query.data.unpricedAssets.length > 0;
  return (
    <section className="card" aria-labelledby="balances-title">
      <h2 id="balances-title" className="visually-hidden">
        {t('title.balance')}
      </h2>
      <p className="total-value">
        <span className="muted">{t('balance.totalValue')}</span>{' '}
        <strong data-testid="total-value">
          {`${formatMoney(language, query.data.totalValueUsdt, 'USDT')} USDT`}
        </strong>
        {unpriced ? <span className="muted small"> ({t('balance.valuePending')})</span> : null}
      </p>
      <BalanceRows rows={query.data.balances} />
      <HeldBy rows={query.data.balances} />
      {book === 'demo' ? <ResetDemo userId={userId} /> : null}
      <MoneyLinks />
    </section>
  );
}

export default function Balance() {
  use(ledgerTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.balance')} book>
      <section className="card">
        <BookSwitch />
      </section>
      {user ? <BalanceTable userId={user.id} /> : null}
    </AccountPage>
  );
}

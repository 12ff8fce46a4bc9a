import type { EarnInvestment, EarnInvestmentDetail, EarnRedeemQuote, EarnType } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, type RefObject, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatPercent } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { announce } from '../../ui/announce.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { FormError } from '../../ui/Field.tsx';
import { Empty } from '../../ui/PageState.tsx';
import { exactFact, type Fact, Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { useQuoteCommit } from '../../ui/useQuoteCommit.ts';
import { ledgerQueries } from '../ledger/queries.ts';
import { EarnPage, IncomeWord, Refusal, StatusWord, useEarnFormat } from './parts.tsx';
import { earnQueries } from './queries.ts';

/** Per asset, of this type of investment only: what is invested now, the last settled day's income, the income to date. */
function Summary({ userId, type }: { userId: number; type: EarnType }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const book = useCurrentBook();
  const query = useQuery(earnQueries.summary(userId, book, type));
  return (
    <section className="card earn-summary" aria-labelledby="earn-summary-title" data-testid="earn-summary">
      <h2 id="earn-summary-title">{t('earn.mine.summary')}</h2>
      {!query.isSuccess ? (
        <QueryState query={query} />
      ) : query.data.length === 0 ? (
        <Empty text={t('earn.mine.noSummary')} />
      ) : (
        <ul className="product-list earn-summary-list">
          {query.data.map((row) => (
            <li key={row.asset} data-asset={row.asset}>
              <h3>{row.asset}</h3>
              <dl className="product-fact-grid earn-summary-facts">
                <div data-fact="invested" data-value={row.invested}>
                  <dt>{t('earn.mine.invested')}</dt>
                  <dd>{f.money(row.invested, row.asset)}</dd>
                </div>
                <div data-fact="incomeToday" data-value={row.incomeToday}>
                  <dt>{t('earn.mine.incomeToday')}</dt>
                  <dd>{f.exact(row.incomeToday, row.asset)}</dd>
                </div>
                <div data-fact="totalIncome" data-value={row.totalIncome}>
                  <dt>{t('earn.mine.totalIncome')}</dt>
                  <dd>{f.exact(row.totalIncome, row.asset)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The facts of an investment, as its card and its detail show them. */
function useInvestmentFacts(i: EarnInvestment): Fact[] {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const facts: [string, ReactNode, string][] = [
    [
      t('earn.fact.rate'),
      i.income === 'static'
        ? t('earn.quote.rates', {
            annual: i.annualRate === null ? '—' : f.percent(i.annualRate),
            daily: i.dailyRate === null ? '—' : f.percent(i.dailyRate),
          })
        : t('earn.mine.dynamicRate'),
      'rate',
    ],
    [t('earn.fact.term'), f.term(i.termDays), 'term'],
    [t('earn.pay.title'), i.payWith === 'proof' ? t('earn.pay.proof') : t('earn.pay.balance'), 'payWith'],
    [t('earn.quote.entrustTime'), f.date(i.entrustTime), 'entrustTime'],
  ];
  if (i.accrualStart) facts.push([t('earn.quote.accrualStart'), f.date(i.accrualStart), 'accrualStart']);
  if (i.expiryTime) facts.push([t('earn.quote.expiryTime'), f.date(i.expiryTime), 'expiryTime']);
  if (i.collectionTime)
    facts.push([t('earn.quote.collectionTime'), f.date(i.collectionTime), 'collectionTime']);
  if (i.totalInterest !== null)
    facts.push([t('earn.mine.totalInterest'), f.exact(i.totalInterest, i.asset), 'totalInterest']);
  if (i.incomeToDate !== null)
    facts.push([t('earn.mine.incomeToDate'), f.exact(i.incomeToDate, i.asset), 'incomeToDate']);
  if (i.incomeLastDay !== null)
    facts.push([t('earn.mine.incomeLastDay'), f.exact(i.incomeLastDay, i.asset), 'incomeLastDay']);
  if (i.redeemedAt) facts.push([t('earn.mine.redeemedAt'), f.date(i.redeemedAt), 'redeemedAt']);
  if (i.received !== null) facts.push([t('earn.mine.received'), f.exact(i.received, i.asset), 'received']);
  if (i.reason) facts.push([t('earn.mine.reason'), i.reason, 'reason']);
  if (i.paused) facts.push([t('earn.mine.owed'), f.exact(i.paused.owed, i.asset), 'owed']);
  return facts.map(([label, shown, name]) => ({ name, label, shown }));
}

/** An investment's daily income, newest first (with the day's rate when the income is dynamic). */
function IncomeHistory({
  investment,
  incomes,
}: {
  investment: EarnInvestment;
  incomes: EarnInvestmentDetail['incomes'];
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (incomes.length === 0) return <Empty text={t('earn.mine.noIncome')} />;
  const dynamic = investment.income === 'dynamic';
  return (
    <ScrollTable
      cards
      label={t('earn.mine.incomes')}
      testId="income-history"
      head={[
        { text: t('earn.history.day') },
        ...(dynamic ? [{ text: t('earn.history.rate'), num: true }] : []),
        { text: t('earn.mine.income'), num: true },
      ]}
    >
      {[...incomes].reverse().map((day) => (
        <tr key={day.day}>
          <td>{f.day(day.day)}</td>
          {dynamic ? (
            <td className="num" dir="ltr">
              {day.rate === null ? '—' : formatPercent(f.language, day.rate, { minimumFractionDigits: 2 })}
            </td>
          ) : null}
          <td className="num" data-value={day.amount}>
            {f.exact(day.amount, investment.asset)}
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

/** One investment with its daily income (earnInvestment), in a dialog. */
function InvestmentDetail({
  userId,
  investment,
  onClose,
}: {
  userId: number;
  investment: EarnInvestment;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const book = useCurrentBook();
  const dialog = useModal();
  const titleId = useId();
  const query = useQuery(earnQueries.investment(userId, book, investment.id));
  const shown = query.data ?? investment;
  const facts = useInvestmentFacts(shown);
  return (
    <ConfirmDialog
      dialogRef={dialog}
      titleId={titleId}
      title={shown.productName}
      label={t('earn.mine.incomes')}
      testId="investment-detail"
      className="earn-dialog"
      onClose={onClose}
      actions={
        <div className="row end">
          {' '}
          <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
            {t('earn.mine.close')}
          </button>
        </div>
      }
    >
      <p className="product-card-amount">
        <strong>{f.exact(shown.amount, shown.asset)}</strong>{' '}
        <StatusWord status={shown.status} paused={shown.paused !== null} />
      </p>
      <Paused investment={shown} />
      <Facts facts={facts} mark="fact" />
      <h3>{t('earn.mine.incomes')}</h3>
      {!query.isSuccess ? (
        <QueryState query={query} />
      ) : (
        <IncomeHistory investment={shown} incomes={query.data.incomes} />
      )}
    </ConfirmDialog>
  );
}

/**
 * The commit of exactly the redemption quote shown, renewed in place when it ran out; once done,
 * the investments and balances are read again and what was received is said.
 */
function useRedeemCommit(
  investment: EarnInvestment,
  first: EarnRedeemQuote,
  dialog: RefObject<HTMLDialogElement | null>,
) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const queryClient = useQueryClient();
  return useQuoteCommit({
    first,
    commit: (q) =>
      callApi(investment.type === 'vip' ? 'vipRedeem' : 'fundRedeem', { body: { quoteId: q.quoteId } }),
    renew: () => callApi('earnRedeemQuote', { body: { id: investment.id } }),
    onDone: (done, q) => {
      void queryClient.invalidateQueries({ queryKey: earnQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(
        t('earn.redeem.done', {
          name: done.productName,
          amount: f.exact(done.received ?? q.receive, done.asset),
        }),
      );
    },
    renewedText: t('earn.buy.renewed'),
  });
}

/** What is paid now beside what holding to the end would pay (and when). */
function RedeemCompare({ investment, quote }: { investment: EarnInvestment; quote: EarnRedeemQuote }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  return (
    <div className="earn-compare">
      <div className="earn-compare-now" data-figure="receive" data-value={quote.receive}>
        <p className="small">{t('earn.redeem.receiveNow')}</p>
        <p className="earn-compare-value">{f.exact(quote.receive, quote.asset)}</p>
      </div>
      {quote.atMaturity !== null ? (
        <div className="earn-compare-later" data-figure="atMaturity" data-value={quote.atMaturity}>
          <p className="small">{t('earn.redeem.atMaturity')}</p>
          <p className="earn-compare-value">{f.exact(quote.atMaturity, quote.asset)}</p>
          {investment.expiryTime ? (
            <p className="small muted">{t('earn.redeem.on', { date: f.date(investment.expiryTime) })}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Early redemption: what is paid now beside what holding to the end would pay, then the commit of
 * exactly that quote. A quote that ran out (10032) is renewed in place; nothing moves until the
 * customer confirms the figures shown.
 */
function RedeemDialog({
  investment,
  first,
  onClose,
}: {
  investment: EarnInvestment;
  first: EarnRedeemQuote;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const book = useCurrentBook();
  const dialog = useModal();
  const { quote, renewed, busy, failure, submit } = useRedeemCommit(investment, first, dialog);
  const flexible = investment.termDays === null;
  const rows: [string, string, string][] = [
    [t('earn.redeem.amount'), quote.amount, 'amount'],
    [t('earn.redeem.penalty', { rate: f.percent(investment.penaltyRate) }), quote.penalty, 'penalty'],
    [t('earn.redeem.incomeToDate'), quote.incomeToDate, 'incomeToDate'],
  ];
  return (
    <QuoteConfirm
      dialog={dialog}
      title={flexible ? t('earn.redeem.titleFlexible') : t('earn.redeem.title')}
      label={t('earn.redeem.receiveNow')}
      testId="redeem-confirm"
      className="earn-dialog"
      onClose={onClose}
      onConfirm={() => void submit()}
      renewed={renewed && t('earn.buy.renewed')}
      failure={failure ? <Refusal error={failure} demo={book === 'demo'} /> : null}
      cancel={t('earn.redeem.keep')}
      confirm={
        busy
          ? t('earn.redeem.redeeming')
          : t('earn.redeem.confirm', { amount: f.exact(quote.receive, quote.asset) })
      }
      disabled={busy}
    >
      <p className="product-confirm-name">{investment.productName}</p>
      <Facts
        facts={rows.map(([label, value, name]) => exactFact(f, name, label, value, quote.asset))}
        testId="redeem-figures"
        quoteId={quote.quoteId}
      />
      <RedeemCompare investment={investment} quote={quote} />
      <p className="small muted">{flexible ? t('earn.redeem.flexibleNote') : t('earn.redeem.note')}</p>
    </QuoteConfirm>
  );
}

/** Asks for the redemption quote of an investment, then `onQuote`; a refusal is said under the card's buttons. */
function useRedeemQuote(id: number, onQuote: () => void) {
  const { t } = useTranslation();
  const [quote, setQuote] = useState<EarnRedeemQuote | null>(null);
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState('');
  const ask = async () => {
    setAsking(true);
    setFailure('');
    try {
      setQuote(await callApi('earnRedeemQuote', { body: { id } }));
      onQuote();
    } catch (error) {
      setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    } finally {
      setAsking(false);
    }
  };
  return { quote, asking, failure, ask, clear: () => setQuote(null) };
}

/** The facts a card shows of an investment (its detail shows them all). */
const CARD_FACTS = [
  'rate',
  'term',
  'entrustTime',
  'expiryTime',
  'incomeToDate',
  'owed',
  'received',
  'reason',
];

/** Why an investment earns nothing now: its product's reserve could not pay since a day, what is owed, and when it is paid. */
function Paused({ investment: i }: { investment: EarnInvestment }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  if (!i.paused) return null;
  return (
    <p
      className="product-caution"
      data-testid="earn-paused"
      data-since={i.paused.since}
      data-owed={i.paused.owed}
    >
      <strong>{t('earn.paused.title')}</strong>{' '}
      {t('earn.paused.text', { day: f.day(i.paused.since), owed: f.exact(i.paused.owed, i.asset) })}
    </p>
  );
}

function InvestmentCard({ userId, investment: i }: { userId: number; investment: EarnInvestment }) {
  const { t } = useTranslation();
  const f = useEarnFormat();
  const [open, setOpen] = useState<'detail' | 'redeem' | null>(null);
  const redeem = useRedeemQuote(i.id, () => setOpen('redeem'));
  const headingId = `investment-${i.id}`;
  const facts = useInvestmentFacts(i).filter(({ name }) => CARD_FACTS.includes(name));
  return (
    <li
      className="card product-card earn-investment"
      data-investment={i.id}
      data-state={i.status}
      aria-labelledby={headingId}
    >
      <div className="product-card-head">
        <h3 id={headingId}>{i.productName}</h3>
        <span className="product-chips">
          <span className="earn-chip product-chip">{i.asset}</span>
          <IncomeWord income={i.income} />
        </span>
      </div>
      <p className="product-card-amount">
        <strong data-value={i.amount}>{f.exact(i.amount, i.asset)}</strong>{' '}
        <StatusWord status={i.status} paused={i.paused !== null} />
      </p>
      <Paused investment={i} />
      <Facts facts={facts} mark="fact" />
      <div className="row">
        <button
          type="button"
          className="button ghost"
          aria-describedby={headingId}
          onClick={() => setOpen('detail')}
        >
          {t('earn.mine.details')}
        </button>
        {i.status === 'in_progress' ? (
          <button
            type="button"
            className="button primary"
            aria-describedby={headingId}
            disabled={redeem.asking}
            data-testid="redeem"
            onClick={() => void redeem.ask()}
          >
            {i.termDays === null ? t('earn.mine.redeemFlexible') : t('earn.mine.redeem')}
          </button>
        ) : null}
      </div>
      <FormError message={redeem.failure} />
      {open === 'detail' ? (
        <InvestmentDetail userId={userId} investment={i} onClose={() => setOpen(null)} />
      ) : null}
      {open === 'redeem' && redeem.quote ? (
        <RedeemDialog
          investment={i}
          first={redeem.quote}
          onClose={() => {
            setOpen(null);
            redeem.clear();
          }}
        />
      ) : null}
    </li>
  );
}

function Investments({ userId, type }: { userId: number; type: EarnType }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const query = useQuery(earnQueries.mine(userId, book, type));
  return (
    <section className="earn-mine" aria-labelledby="earn-mine-title">
      <h2 id="earn-mine-title">{type === 'vip' ? t('earn.nav.myVip') : t('earn.nav.myFunds')}</h2>
      {!query.isSuccess ? (
        <QueryState query={query} />
      ) : query.data.length === 0 ? (
        <div className="card product-note earn-missing">
          <p>{t('earn.mine.none')}</p>
          <Link to={type === 'vip' ? '/financial/vipInvest' : '/financial/cryptoInvest'}>
            {type === 'vip' ? t('earn.detail.toVip') : t('earn.detail.toFunds')}
          </Link>
        </div>
      ) : (
        <ul className="product-grid" data-testid="earn-investments">
          {query.data.map((investment) => (
            <InvestmentCard key={investment.id} userId={userId} investment={investment} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** My investments (/financial/myInvest/:type, fund or vip): the summary per asset, then each investment. */
export default function MyInvest() {
  const { t } = useTranslation();
  const { type } = useParams();
  const user = useClientState((s) => s.userInfo);
  if (type !== 'fund' && type !== 'vip') return <Navigate to="/financial/myInvest/fund" replace />;
  return (
    <EarnPage title={t('title.myInvest')}>
      <NeedsLogin>
        {user ? (
          <div className="product-stack">
            <Summary userId={user.id} type={type} />
            <Investments userId={user.id} type={type} />
          </div>
        ) : null}
      </NeedsLogin>
    </EarnPage>
  );
}

import type { SmartPlanDetail, SmartTrade } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { callApi } from '../../app/api.ts';
import { formatDecimal } from '../../app/i18n.ts';
import { idOf } from '../../app/pathId.ts';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { announce } from '../../ui/announce.ts';
import { Empty } from '../../ui/PageState.tsx';
import { exactFact, Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { usePlanFacts } from './Plans.tsx';
import {
  DemoDisabled,
  Move,
  Refusal,
  RiskFacts,
  SmartPage,
  StateWord,
  useFeeText,
  useSmartFormat,
} from './parts.tsx';
import { smartQueries } from './queries.ts';

/** A trade's side in words (long: it gains when the price rises). */
function Side({ side }: { side: SmartTrade['side'] }) {
  const { t } = useTranslation();
  return (
    <span className="smart-side" data-side={side}>
      {t(`smart.side.${side}`)}
    </span>
  );
}

/** One trade: instrument, side and leverage, size, open and close, fee, result. */
function TradeRow({ trade, asset }: { trade: SmartTrade; asset: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return (
    <tr data-trade={trade.positionId} data-open={trade.closedAt === null || undefined}>
      <td>
        <bdi>{trade.instrument}</bdi>
      </td>
      <td>
        <Side side={trade.side} />
        <span className="small muted"> · {`\u2066${f.count(trade.leverage)}×\u2069`}</span>
      </td>
      <td className="num" data-value={trade.size}>
        {t('smart.trades.lotsIn', {
          size: `\u2066${formatDecimal(f.language, trade.size)}\u2069`,
          units: `\u2066${formatDecimal(f.language, trade.units)} ${trade.unit ?? `× ${trade.instrument}`}\u2069`,
        })}
      </td>
      <td>
        <span className="smart-price" data-value={trade.openPrice}>
          {f.price(trade.openPrice)}
        </span>
        <span className="small muted smart-time">{f.date(trade.openedAt)}</span>
      </td>
      <td>
        {trade.closePrice === null || trade.closedAt === null ? (
          <span>{t('smart.trades.stillOpen')}</span>
        ) : (
          <>
            <span className="smart-price" data-value={trade.closePrice}>
              {f.price(trade.closePrice)}
            </span>
            <span className="small muted smart-time">
              {f.date(trade.closedAt)}
              {trade.closeReason ? ` · ${t(`smart.closeReason.${trade.closeReason}`)}` : ''}
            </span>
          </>
        )}
      </td>
      <td className="num" data-value={trade.fee}>
        {f.exact(trade.fee, asset)}
      </td>
      <td className="num">
        {trade.result === null ? (
          t('smart.trades.pending')
        ) : (
          <Move amount={trade.result} asset={asset} testId="trade-result" />
        )}
      </td>
    </tr>
  );
}

/** Every trade of the plan: a real position of the trading engine, open or closed. */
function Trades({ plan }: { plan: SmartPlanDetail }) {
  const { t } = useTranslation();
  return (
    <section className="card smart-trades" aria-labelledby="smart-trades-title" data-testid="smart-trades">
      <h2 id="smart-trades-title">{t('smart.trades.title')}</h2>
      <p className="small muted">{t('smart.trades.note')}</p>
      {plan.trades.length === 0 ? (
        <Empty text={plan.state === 'in_progress' ? t('smart.trades.noneYet') : t('smart.trades.none')} />
      ) : (
        <ScrollTable
          label={t('smart.trades.title')}
          cards
          head={[
            { text: t('smart.trades.instrument') },
            { text: t('smart.trades.side') },
            { text: t('smart.trades.size'), num: true },
            { text: t('smart.trades.open') },
            { text: t('smart.trades.close') },
            { text: t('smart.trades.fee'), num: true },
            { text: t('smart.trades.result'), num: true },
          ]}
        >
          {plan.trades.map((trade) => (
            <TradeRow key={trade.positionId} trade={trade} asset={plan.asset} />
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

/** Each income day: the day's realised result (closed trades' results less their fees), posted at its time. */
function Incomes({ plan }: { plan: SmartPlanDetail }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return (
    <section className="card smart-incomes" aria-labelledby="smart-incomes-title" data-testid="smart-incomes">
      <h2 id="smart-incomes-title">{t('smart.incomes.title')}</h2>
      {plan.incomes.length === 0 ? (
        <Empty
          text={
            plan.nextIncomeTime
              ? t('smart.incomes.first', { time: f.date(plan.nextIncomeTime) })
              : t('smart.incomes.none')
          }
        />
      ) : (
        <ScrollTable
          label={t('smart.incomes.title')}
          cards
          head={[
            { text: t('smart.incomes.day') },
            { text: t('smart.incomes.amount'), num: true },
            { text: t('smart.incomes.posted') },
          ]}
        >
          {[...plan.incomes].reverse().map((day) => (
            <tr key={day.day} data-day={day.day}>
              <td>{f.day(day.day)}</td>
              <td className="num" data-value={day.amount}>
                <Move amount={day.amount} asset={plan.asset} />
              </td>
              <td>{f.date(day.postedAt)}</td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

/**
 * Stop the plan now: says what happens (open positions closed at market, principal ± result back to
 * the balance, the fee only from a positive result), then stops it and says what came back.
 */
function StopDialog({ plan, onClose }: { plan: SmartPlanDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const queryClient = useQueryClient();
  const dialog = useModal();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const feeText = useFeeText();
  const stop = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const done = await callApi('stopSmart', { body: { planId: plan.id } });
      void queryClient.invalidateQueries({ queryKey: smartQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(t('smart.stop.done', { amount: f.exact(done.returned ?? done.amount, done.asset) }));
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('smart.stop.title')}
      label={t('smart.stop.title')}
      testId="smart-stop"
      className="smart-dialog"
      onClose={onClose}
      onConfirm={() => void stop()}
      failure={failure ? <Refusal error={failure} /> : null}
      cancel={t('smart.stop.keep')}
      confirm={busy ? t('smart.stop.stopping') : t('smart.stop.confirm')}
      disabled={busy}
    >
      <p className="product-confirm-name">{plan.productName}</p>
      <ul className="product-rules smart-steps">
        <li>
          {plan.openTrades === 0
            ? t('smart.stop.noneOpen')
            : t('smart.stop.close', { count: plan.openTrades })}
        </li>
        <li>{t('smart.stop.back', { amount: f.exact(plan.amount, plan.asset) })}</li>
        <li>
          {t('smart.fact.fee')}: {feeText(plan.feeShare)} {t('smart.stop.feeRule')}
        </li>
      </ul>
      <Facts
        facts={[
          exactFact(f, 'amount', t('smart.fact.amount'), plan.amount, plan.asset),
          exactFact(f, 'equity', t('smart.fact.equity'), plan.equity, plan.asset),
        ]}
      />
      <p className="small muted">{t('smart.stop.note')}</p>
    </QuoteConfirm>
  );
}

/** What the end gave back: principal, the result, the fee, what reached the balance. */
function Settlement({ plan }: { plan: SmartPlanDetail }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  if (plan.returned === null) return null;
  return (
    <section
      className="card smart-settlement"
      aria-labelledby="smart-settlement-title"
      data-testid="smart-settlement"
    >
      <h2 id="smart-settlement-title">{t('smart.settlement.title')}</h2>
      <Facts
        facts={[
          exactFact(f, 'amount', t('smart.settlement.principal'), plan.amount, plan.asset),
          {
            name: 'result',
            label: t('smart.settlement.result'),
            value: plan.incomeToDate,
            shown: <Move amount={plan.incomeToDate} asset={plan.asset} />,
          },
          exactFact(f, 'fee', t('smart.fact.feeTaken'), plan.fee ?? '0', plan.asset),
          {
            name: 'returned',
            label: t('smart.settlement.returned'),
            value: plan.returned,
            shown: <strong>{f.exact(plan.returned, plan.asset)}</strong>,
          },
        ]}
      />
    </section>
  );
}

function PlanView({ plan }: { plan: SmartPlanDetail }) {
  const { t } = useTranslation();
  const facts = usePlanFacts(plan);
  const [stopping, setStopping] = useState(false);
  return (
    <div className="product-stack smart-detail" data-plan={plan.id} data-state={plan.state}>
      <section className="card product-card smart-summary" aria-labelledby="smart-plan-title">
        <div className="product-card-head">
          <h2 id="smart-plan-title">{plan.productName}</h2>
          <StateWord state={plan.state} />
        </div>
        <Facts facts={facts} testId="plan-facts" />
        {plan.state === 'in_progress' ? (
          <button
            type="button"
            className="button ghost smart-stop-button"
            data-testid="smart-stop-open"
            onClick={() => setStopping(true)}
          >
            {t('smart.stop.open')}
          </button>
        ) : null}
      </section>
      <Settlement plan={plan} />
      <Trades plan={plan} />
      <Incomes plan={plan} />
      <section className="card" aria-labelledby="smart-plan-risk">
        <h2 id="smart-plan-risk">{t('smart.risk.title')}</h2>
        <RiskFacts risk={plan.risk} />
      </section>
      <p>
        <Link to="/trading/plans">{t('smart.plan.back')}</Link>
      </p>
      {stopping ? <StopDialog plan={plan} onClose={() => setStopping(false)} /> : null}
    </div>
  );
}

function PlanScreen({ userId, id }: { userId: number; id: number | null }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const query = useQuery({ ...smartQueries.plan(userId, book, id ?? 0), enabled: id !== null });
  const missing = (
    <Missing
      name="smart"
      text={t('smart.refusal.notFound')}
      to="/trading/plans"
      back={t('smart.plan.back')}
    />
  );
  if (id === null) return missing;
  if (!query.isSuccess) return <QueryState query={query} missing={missing} />;
  return <PlanView plan={query.data} />;
}

/** /trading/plans/:id: a plan with every field, every trade, each income day, and Stop. */
export default function Plan() {
  const { t } = useTranslation();
  const id = idOf(useParams().id);
  const user = useClientState((s) => s.userInfo);
  const demo = useClientState((s) => s.virtual === 1);
  return (
    <SmartPage title={t('title.smartPlan')}>
      <NeedsLogin>
        {demo ? <DemoDisabled /> : user ? <PlanScreen key={user.id} userId={user.id} id={id} /> : null}
      </NeedsLogin>
    </SmartPage>
  );
}

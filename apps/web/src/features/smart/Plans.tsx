import type { SmartPlan } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { exactFact, type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { DemoDisabled, Move, SmartPage, StateWord, useSmartFormat } from './parts.tsx';
import { smartQueries } from './queries.ts';

type SmartFormat = ReturnType<typeof useSmartFormat>;

const fact = (name: string, label: string, shown: ReactNode, value: string): Fact => ({
  name,
  label,
  shown,
  value,
});

/** What the plan is: its product, strategy, instruments, timeframe, amount and the product's range. */
function termFacts(plan: SmartPlan, t: TFunction, f: SmartFormat): Fact[] {
  return [
    fact('product', t('smart.fact.product'), plan.productName, String(plan.productId)),
    fact('strategy', t('smart.fact.strategy'), t(`smart.strategy.${plan.strategy}.name`), plan.strategy),
    fact(
      'instruments',
      t('smart.fact.instruments'),
      <bdi>{plan.instruments.join(', ')}</bdi>,
      plan.instruments.join(','),
    ),
    fact('timeframe', t('smart.fact.timeframe'), f.days(plan.timeframeDays), String(plan.timeframeDays)),
    exactFact(f, 'amount', t('smart.fact.amount'), plan.amount, plan.asset),
    fact(
      'range',
      t('smart.fact.amounts'),
      t('smart.range', {
        minimum: f.exact(plan.minAmount, plan.asset),
        maximum: f.exact(plan.maxAmount, plan.asset),
      }),
      `${plan.minAmount}-${plan.maxAmount}`,
    ),
  ];
}

/** How the plan runs: its yield and income so far, its times, its trades and equity. */
function runFacts(plan: SmartPlan, t: TFunction, f: SmartFormat): Fact[] {
  return [
    fact(
      'dailyYield',
      t('smart.fact.dailyYield'),
      plan.dailyYield === null ? t('smart.plan.noIncomeYet') : f.signedPercent(plan.dailyYield),
      plan.dailyYield ?? '',
    ),
    fact(
      'realisedReturn',
      t('smart.fact.realisedReturn'),
      f.signedPercent(plan.realisedReturn),
      plan.realisedReturn,
    ),
    fact(
      'incomeToDate',
      t('smart.fact.incomeToDate'),
      <Move amount={plan.incomeToDate} asset={plan.asset} />,
      plan.incomeToDate,
    ),
    fact(
      'runningTime',
      t('smart.fact.runningTime'),
      f.running(plan.runningSeconds),
      String(plan.runningSeconds),
    ),
    fact('startTime', t('smart.fact.startTime'), f.date(plan.startTime), plan.startTime),
    fact('endTime', t('smart.fact.endTime'), f.date(plan.endTime), plan.endTime),
    fact(
      'nextIncomeTime',
      t('smart.fact.nextIncome'),
      plan.nextIncomeTime === null ? t('smart.plan.ended') : f.date(plan.nextIncomeTime),
      plan.nextIncomeTime ?? '',
    ),
    // Days of profit share only once a day has made a profit: none is not "0 days" of a share.
    ...(plan.profitShareDays > 0
      ? [
          fact(
            'profitShareDays',
            t('smart.fact.profitShareDays'),
            f.days(plan.profitShareDays),
            String(plan.profitShareDays),
          ),
        ]
      : []),
    fact(
      'trades',
      t('smart.fact.trades'),
      t('smart.plan.tradesCount', { count: plan.tradeCount, open: f.count(plan.openTrades) }),
      String(plan.tradeCount),
    ),
    exactFact(f, 'equity', t('smart.fact.equity'), plan.equity, plan.asset),
  ];
}

/** How the plan ended, once it has: when, why, the fee taken and what came back. */
function endFacts(plan: SmartPlan, t: TFunction, f: SmartFormat): Fact[] {
  const facts: Fact[] = [];
  if (plan.endedAt) facts.push(fact('endedAt', t('smart.fact.endedAt'), f.date(plan.endedAt), plan.endedAt));
  if (plan.endReason)
    facts.push(
      fact('endReason', t('smart.fact.endReason'), t(`smart.endReason.${plan.endReason}`), plan.endReason),
    );
  if (plan.fee !== null) facts.push(exactFact(f, 'fee', t('smart.fact.feeTaken'), plan.fee, plan.asset));
  if (plan.returned !== null)
    facts.push(exactFact(f, 'returned', t('smart.fact.returned'), plan.returned, plan.asset));
  return facts;
}

/** Every field of spec §3 of a plan, with income to date and, once ended, what came back. */
export function usePlanFacts(plan: SmartPlan): Fact[] {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return [...termFacts(plan, t, f), ...runFacts(plan, t, f), ...endFacts(plan, t, f)];
}

const CARD_FACTS = [
  'timeframe',
  'dailyYield',
  'incomeToDate',
  'runningTime',
  'startTime',
  'nextIncomeTime',
  'profitShareDays',
  'returned',
];

function PlanCard({ plan }: { plan: SmartPlan }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const headingId = `smart-plan-${plan.id}`;
  const facts = usePlanFacts(plan).filter((row) => CARD_FACTS.includes(row.name));
  return (
    <li
      className="card product-card smart-card"
      data-plan={plan.id}
      data-state={plan.state}
      aria-labelledby={headingId}
    >
      <div className="product-card-head">
        <h2 id={headingId}>
          <Link to={`/trading/plans/${plan.id}`}>{plan.productName}</Link>
        </h2>
        <StateWord state={plan.state} />
      </div>
      <p className="product-card-amount">
        <strong data-value={plan.amount}>{f.exact(plan.amount, plan.asset)}</strong>{' '}
        <span className="muted small">{t(`smart.strategy.${plan.strategy}.name`)}</span>
      </p>
      <Facts facts={facts} />
      <Link className="button ghost block" to={`/trading/plans/${plan.id}`} aria-describedby={headingId}>
        {t('smart.plan.open')}
      </Link>
    </li>
  );
}

function PlanList({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const query = useQuery(smartQueries.plans(userId, book));
  if (!query.isSuccess) return <QueryState query={query} />;
  if (query.data.length === 0)
    return (
      <section className="card smart-missing" data-testid="smart-no-plans">
        <p>{t('smart.plan.none')}</p>
        <Link to="/trading">{t('smart.refusal.toProducts')}</Link>
      </section>
    );
  return (
    <ul className="product-grid" data-testid="smart-plans">
      {query.data.map((plan) => (
        <PlanCard key={plan.id} plan={plan} />
      ))}
    </ul>
  );
}

/** My plans (/trading/plans): every plan with the fields of spec §3 and income to date; live book only. */
export default function Plans() {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const demo = useClientState((s) => s.virtual === 1);
  return (
    <SmartPage title={t('title.smartPlans')}>
      <NeedsLogin>{demo ? <DemoDisabled /> : user ? <PlanList userId={user.id} /> : null}</NeedsLogin>
    </SmartPage>
  );
}

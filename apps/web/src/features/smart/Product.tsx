import { Code, type SmartBacktest, type SmartLiveRecord, type SmartProduct } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatNumber } from '../../app/i18n.ts';
import { idOf } from '../../app/pathId.ts';
import { useClientState } from '../../app/state.ts';
import { NeedsLogin } from '../../ui/AccountPage.tsx';
import { Empty } from '../../ui/PageState.tsx';
import { Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { CreatePlan } from './CreatePlan.tsx';
import {
  Closed,
  DemoDisabled,
  ProductFacts,
  Realised,
  RiskFacts,
  SmartPage,
  StateWord,
  useSmartFormat,
} from './parts.tsx';
import { smartQueries } from './queries.ts';

const EquityChart = lazy(() => import('./EquityChart.tsx'));

/** The strategy in plain words, from its documentation texts and its own settings. */
function Strategy({ product }: { product: SmartProduct }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  const s = product.strategy;
  const values: Record<string, string> = { bar: f.count(s.barMinutes) };
  for (const [name, value] of Object.entries(s.parameters)) values[name] = f.count(value);
  return (
    <section
      className="card product-card smart-strategy"
      aria-labelledby="smart-strategy-title"
      data-testid="smart-strategy"
    >
      <h2 id="smart-strategy-title">{t('smart.product.strategy', { name: t(`${s.docKey}.name`) })}</h2>
      <p>{t(`${s.docKey}.entry`, values)}</p>
      <p>{t(`${s.docKey}.exit`, values)}</p>
      <p className="small muted">{t(`${s.docKey}.idea`)}</p>
      <p className="small">
        {t('smart.product.howItTrades', { instruments: product.instruments.join(', ') })}
      </p>
      <h3>{t('smart.risk.title')}</h3>
      <RiskFacts risk={s.risk} testId="risk-limits" />
      <p className="small muted">{t('smart.risk.note')}</p>
    </section>
  );
}

/** The past year's backtest: its equity curve and figures, labelled as past. */
function Backtest({ backtest, asset }: { backtest: SmartBacktest | null; asset: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  if (backtest === null)
    return (
      <section
        className="card product-card smart-backtest"
        aria-labelledby="smart-backtest-title"
        data-testid="smart-backtest"
      >
        <h2 id="smart-backtest-title">{t('smart.backtest.title')}</h2>
        <Empty text={t('smart.backtest.none')} />
      </section>
    );
  const decimal = (value: string | null) =>
    value === null
      ? t('smart.backtest.na')
      : formatNumber(f.language, Number(value), { maximumFractionDigits: 2 });
  const rows: [string, string, ReactNode][] = [
    ['totalReturn', backtest.totalReturn, f.signedPercent(backtest.totalReturn)],
    ['annualisedReturn', backtest.annualisedReturn, f.signedPercent(backtest.annualisedReturn)],
    ['maxDrawdown', backtest.maxDrawdown, f.percent(backtest.maxDrawdown)],
    ['sharpe', backtest.sharpe ?? '', decimal(backtest.sharpe)],
    [
      'winRate',
      backtest.winRate ?? '',
      backtest.winRate === null ? t('smart.backtest.na') : f.percent(backtest.winRate),
    ],
    ['profitFactor', backtest.profitFactor ?? '', decimal(backtest.profitFactor)],
    ['trades', String(backtest.trades), f.count(backtest.trades)],
    ['fees', backtest.fees, f.money(backtest.fees, asset)],
    ['marketChange', backtest.marketChange, f.signedPercent(backtest.marketChange)],
    ['finalEquity', backtest.finalEquity, f.money(backtest.finalEquity, asset)],
  ];
  const toFact = ([name, value, shown]: (typeof rows)[number]) => ({
    name,
    value,
    shown,
    label: t(`smart.backtest.${name}`),
  });
  const label = t('smart.backtest.chart', {
    from: f.day(backtest.from),
    to: f.day(backtest.to),
    start: f.money(backtest.amount, asset),
    end: f.money(backtest.finalEquity, asset),
  });
  return (
    <section
      className="card product-card smart-backtest"
      aria-labelledby="smart-backtest-title"
      data-testid="smart-backtest"
    >
      <h2 id="smart-backtest-title">{t('smart.backtest.title')}</h2>
      <p className="small">
        {t('smart.backtest.period', {
          from: f.day(backtest.from),
          to: f.day(backtest.to),
          amount: f.money(backtest.amount, asset),
          instruments: backtest.instruments.join(', '),
        })}
      </p>
      <Suspense fallback={<div className="smart-chart" aria-hidden="true" />}>
        <EquityChart points={backtest.equity} label={label} />
      </Suspense>
      <Facts facts={rows.map(toFact)} testId="backtest-figures" className="smart-figures" />
      {backtest.stoppedByDrawdown ? <p className="notice">{t('smart.backtest.stopped')}</p> : null}
      <p className="small muted">{t('smart.backtest.note')}</p>
    </section>
  );
}

/** The live record: every plan of the product with its realised yield and period, and all together. */
function LiveRecord({ live, asset }: { live: SmartLiveRecord; asset: string }) {
  const { t } = useTranslation();
  const f = useSmartFormat();
  return (
    <section
      className="card product-card smart-live"
      aria-labelledby="smart-live-title"
      data-testid="smart-live"
    >
      <h2 id="smart-live-title">{t('smart.live.title')}</h2>
      <p className="small">
        {t('smart.live.counts', { plans: f.count(live.plans), running: f.count(live.running) })}
      </p>
      <Realised realised={live.realised} />
      {live.items.length === 0 ? null : (
        <ScrollTable
          label={t('smart.live.caption')}
          cards
          head={[
            { text: t('smart.live.plan') },
            { text: t('smart.fact.amount'), num: true },
            { text: t('smart.fact.timeframe') },
            { text: t('smart.fact.state') },
            { text: t('smart.live.daily'), num: true },
            { text: t('smart.live.period') },
          ]}
        >
          {live.items.map((item) => (
            <tr key={item.planId} data-plan={item.planId} data-trades={item.trades}>
              <td>{f.count(item.planId)}</td>
              <td className="num">{f.money(item.amount, asset)}</td>
              <td>{f.days(item.timeframeDays)}</td>
              <td>
                <StateWord state={item.state} />
              </td>
              <td className="num" data-value={item.trades === 0 ? '' : item.realised.dailyYield}>
                {item.trades === 0 ? t('smart.live.noTrade') : f.signedPercent(item.realised.dailyYield)}
              </td>
              <td>
                {item.trades === 0
                  ? f.span(item.realised.days)
                  : t('smart.live.over', {
                      days: f.span(item.realised.days),
                      return: f.signedPercent(item.realised.periodReturn),
                    })}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </section>
  );
}

/** The product's page: the strategy in plain words with its risk limits, the backtest beside the live record, then create a plan. */
function ProductView({
  product,
  backtest,
  live,
}: {
  product: SmartProduct;
  backtest: SmartBacktest | null;
  live: SmartLiveRecord;
}) {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const demo = useClientState((s) => s.isLogin && s.virtual === 1);
  const open = product.enabled && !product.soldOut;
  return (
    <div className="product-stack smart-detail" data-product={product.id}>
      <section className="card product-card smart-summary" aria-labelledby="smart-product-name">
        <h2 id="smart-product-name">{t('smart.product.terms')}</h2>
        <Realised realised={product.realised} />
        <ProductFacts product={product} />
        <Closed product={product} />
      </section>
      <Strategy product={product} />
      <div className="product-grid smart-records">
        <Backtest backtest={backtest} asset={product.asset} />
        <LiveRecord live={live} asset={product.asset} />
      </div>
      {open ? (
        <NeedsLogin>
          {demo ? (
            <DemoDisabled />
          ) : user ? (
            <CreatePlan key={`${user.id}`} product={product} userId={user.id} />
          ) : null}
        </NeedsLogin>
      ) : null}
      <p>
        <Link to="/trading">{t('smart.refusal.toProducts')}</Link>
      </p>
    </div>
  );
}

/** /trading/:productId: a product's page and the creation of a plan. */
export default function Product() {
  const { t } = useTranslation();
  const id = idOf(useParams().productId);
  const query = useQuery({ ...smartQueries.product(id ?? 0), enabled: id !== null });
  const missing = (
    <Missing
      name="smart"
      text={t('smart.refusal.product')}
      to="/trading"
      back={t('smart.refusal.toProducts')}
    />
  );
  return (
    <SmartPage title={query.data ? query.data.product.name : t('title.smartProduct')}>
      {id === null ? (
        missing
      ) : !query.isSuccess ? (
        <QueryState query={query} missing={missing} missingCode={Code.SMART_PRODUCT_INCORRECT} />
      ) : (
        <ProductView product={query.data.product} backtest={query.data.backtest} live={query.data.live} />
      )}
    </SmartPage>
  );
}

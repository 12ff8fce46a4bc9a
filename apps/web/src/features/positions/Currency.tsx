import { LANGUAGE_TAGS, type MarketItem, PERIODS } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import {
  type Dispatch,
  lazy,
  memo,
  type SetStateAction,
  Suspense,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { InView } from '../../ui/InView.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { Change } from '../market/Change.tsx';
import { direction, percent, price, type Quote, useQuote } from '../market/live.ts';
import { marketQueries } from '../market/queries.ts';
import { WatchStar } from '../market/WatchStar.tsx';
import { useWatchlist } from '../market/watch.ts';
import { AlertBell } from '../pricealerts/AlertBell.tsx';
import '../market/market.css';

/** What the live parts of the page read of the instrument (getMarketInfo's answer). */
type MarketInfo = { code: string; appName: string; open: boolean; change: string };

const CandleChart = lazy(() => import('../market/CandleChart.tsx'));
/**
 * The order ticket is its own chunk: reading prices needs none of it. Memo: a quote tick
 * re-renders this page, not the ticket, whose props change with the instrument's snapshot (every
 * few seconds) and which prices the order by its own preview query.
 */
const OrderTicket = memo(lazy(() => import('./OrderTicket.tsx')));
const SECONDS: Record<string, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '4h': 14_400,
  '1d': 86_400,
  '1w': 604_800,
};
/** Screen readers hear the price at most this often, politely, unless the reader pauses it (WCAG 2.2.2). */
const ANNOUNCE_EVERY_MS = 30_000;

type Period = (typeof PERIODS)[number];
type Watch = ReturnType<typeof useWatchlist>;

/**
 * The instrument's snapshot and candles. What the screen shows of the instrument (`shown`) is the
 * answer as it arrives, drawn at a transition's priority (React draws the whole page in slices, the
 * browser free between them, instead of in the task that brought the answer). The candles are
 * asked for once that is drawn: the page's own figures first, the chart's data beside the chart's
 * module, which only loads then.
 */
function useInstrument(id: number, codeParam: string | null, period: Period) {
  const language = useClientState((s) => s.language);
  const info = useQuery({
    ...marketQueries.info(language, id),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: 5_000,
  });
  const shown = useDeferredValue(info.data);
  const code = info.data?.code ?? codeParam ?? '';
  const series = useQuery({
    ...marketQueries.candles(code, period),
    enabled: code !== '' && shown !== undefined,
  });
  const day = useQuery({
    ...marketQueries.candles(code, '15m'),
    enabled: code !== '' && shown !== undefined,
  });
  const stats = useMemo(() => {
    const c = (day.data?.candles ?? []).slice(-96);
    if (c.length === 0) return null;
    return {
      open: c[0]?.open ?? '',
      high: c.reduce((m, x) => (Number(x.high) > Number(m) ? x.high : m), c[0]?.high ?? '0'),
      low: c.reduce((m, x) => (Number(x.low) < Number(m) ? x.low : m), c[0]?.low ?? '0'),
    };
  }, [day.data]);
  return { info, shown, series, stats };
}

export default function Currency() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const locale = LANGUAGE_TAGS[useClientState((s) => s.language)];
  const [period, setPeriod] = useState<Period>('1h');
  const { info, shown, series, stats } = useInstrument(id, params.get('code'), period);
  const watch = useWatchlist();
  const [speakPrice, setSpeakPrice] = useState(true);
  /** The order ticket's quote (the tick its figures are priced at), while it has one. */
  const [ticketQuote, setTicketQuote] = useState<Quote | null>(null);

  if (
    !Number.isInteger(id) ||
    id <= 0 ||
    (info.isError && info.error instanceof Error && (info.error as { code?: number }).code === 10028)
  ) {
    return (
      <div className="container page">
        <h1 className="page-title">{t('title.currency')}</h1>
        <p>{t('market.notFound')}</p>
      </div>
    );
  }
  if (info.isError) return <Failed message={info.error.message} onRetry={() => void info.refetch()} />;
  if (!shown) return <Loading />;
  const item = shown;
  // One quote for the whole screen: the headline, the bid/ask strip and the ticket show the same
  // tick. While the ticket prices the market, that is its tick; otherwise the instrument's own
  // snapshot (price, bid and ask computed together). Never the socket's price beside another
  // moment's bid and ask.
  const quote: Quote =
    item.open && ticketQuote ? ticketQuote : { bid: item.bid, ask: item.ask, mid: item.price };
  return (
    <div className="container page currency">
      <InstrumentHead
        item={item}
        nowPrice={quote.mid}
        locale={locale}
        watch={watch}
        speak={[speakPrice, setSpeakPrice]}
      />
      <QuoteGrid quote={quote} locale={locale} />
      <DayStats stats={stats} locale={locale} />
      <ChartCard
        series={series}
        period={period}
        onPeriod={setPeriod}
        livePrice={item.open ? quote.mid : undefined}
        name={item.appName}
      />
      <section className="card" aria-labelledby="trade-title">
        <h2 id="trade-title">{t('market.trade')}</h2>
        <Suspense fallback={<Loading />}>
          <OrderTicket item={item} onQuote={setTicketQuote} />
        </Suspense>
      </section>
    </div>
  );
}

/** The instrument's name, its live price and change, and whether its market is open. */
function InstrumentHead({
  item,
  nowPrice,
  locale,
  watch,
  speak: [speakPrice, setSpeakPrice],
}: {
  item: MarketItem;
  nowPrice: string;
  locale: string;
  watch: Watch;
  /** Whether the price is spoken (the reader may pause it), kept while instruments change. */
  speak: [boolean, Dispatch<SetStateAction<boolean>>];
}) {
  const { t } = useTranslation();
  return (
    <>
      <header className="currency-head">
        <img src={item.logo} alt="" width="44" height="44" />
        <div>
          <h1 className="page-title">{item.appName}</h1>
          <p className="muted">{item.code}</p>
        </div>
        {watch.enabled ? (
          <WatchStar item={item} watched={watch.ids.has(item.id)} onToggle={watch.toggle} />
        ) : null}
        {watch.enabled ? <AlertBell item={item} /> : null}
      </header>
      <p className="currency-price">
        <strong data-testid="live-price" data-price={nowPrice}>
          {nowPrice ? price(nowPrice, locale) : '—'}
        </strong>{' '}
        <LiveChange item={item} />
        {item.open ? null : (
          <span className="badge" data-testid="closed-mark">
            {t('market.closed')}
          </span>
        )}
      </p>
      <button
        type="button"
        className="button ghost small speak-price"
        aria-pressed={speakPrice}
        onClick={() => setSpeakPrice((on) => !on)}
      >
        {t('market.speakPrice')}
      </button>
      <PriceAnnouncer item={item} nowPrice={nowPrice} locale={locale} speak={speakPrice} />
      {item.open ? null : (
        <p className="notice">
          {t('market.marketClosed')} {t('market.closedChange')}
        </p>
      )}
    </>
  );
}

/** The page's quote: bid, ask and the spread between them. */
function QuoteGrid({ quote, locale }: { quote: Quote; locale: string }) {
  const { t } = useTranslation();
  return (
    <dl className="term-grid quote-grid" data-testid="page-quote">
      <div data-quote="bid" data-value={quote.bid}>
        <dt>{t('market.bid')}</dt>
        <dd>{price(quote.bid, locale)}</dd>
      </div>
      <div data-quote="ask" data-value={quote.ask}>
        <dt>{t('market.ask')}</dt>
        <dd>{price(quote.ask, locale)}</dd>
      </div>
      <div>
        <dt>{t('market.spread')}</dt>
        <dd>
          {price(
            (Number(quote.ask) - Number(quote.bid)).toFixed(quote.ask.split('.')[1]?.length ?? 2),
            locale,
          )}
        </dd>
      </div>
    </dl>
  );
}

/** The last 24 h (96 quarter-hour candles): open, high and low. */
function DayStats({
  stats,
  locale,
}: {
  stats: { open: string; high: string; low: string } | null;
  locale: string;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="stats-title" className="card">
      <h2 id="stats-title">{t('market.stats')}</h2>
      {stats ? (
        <dl className="term-grid quote-grid">
          <div>
            <dt>{t('market.open24')}</dt>
            <dd>{price(stats.open, locale)}</dd>
          </div>
          <div>
            <dt>{t('market.high')}</dt>
            <dd>{price(stats.high, locale)}</dd>
          </div>
          <div>
            <dt>{t('market.low')}</dt>
            <dd>{price(stats.low, locale)}</dd>
          </div>
        </dl>
      ) : (
        <Loading />
      )}
    </section>
  );
}

/** The candle chart and its timeframes; the last candle follows the live price while open. */
function ChartCard({
  series,
  period,
  onPeriod,
  livePrice,
  name,
}: {
  series: ReturnType<typeof useInstrument>['series'];
  period: Period;
  onPeriod: (period: Period) => void;
  livePrice: string | undefined;
  name: string;
}) {
  const { t } = useTranslation();
  return (
    <section className="card chart-card" aria-labelledby="chart-title">
      <h2 id="chart-title" className="visually-hidden">
        {t('market.chart')}
      </h2>
      <fieldset className="timeframes">
        <legend className="visually-hidden">{t('market.timeframe')}</legend>
        {PERIODS.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={period === p}
            className={period === p ? 'selected' : undefined}
            onClick={() => onPeriod(p)}
          >
            <span aria-hidden="true">{p}</span>
            <span className="visually-hidden">{t(`market.period.${p}`)}</span>
          </button>
        ))}
      </fieldset>
      {series.isError ? (
        <Failed message={series.error.message} onRetry={() => void series.refetch()} />
      ) : null}
      {/* The chart's size from the start; drawn once in view (below the fold on a phone). */}
      <InView className="chart-slot" fallback={<Loading />}>
        <Suspense fallback={<Loading />}>
          {series.data ? (
            <CandleChart
              candles={series.data.candles}
              periodSeconds={SECONDS[period] ?? 3600}
              livePrice={livePrice}
              label={t('market.chartLabel', { name, period: t(`market.period.${period}`) })}
            />
          ) : (
            <Loading />
          )}
        </Suspense>
      </InView>
    </section>
  );
}

/**
 * The feed's change while the market is open, else the server's (a closed market shows the change
 * of its last day of trading, as the market list does). Its own component: a tick of the feed
 * re-renders this, not the page.
 */
function useLiveChange(item: MarketInfo): string {
  const live = useQuote(item.code);
  return (item.open ? live?.change : undefined) ?? item.change;
}

function LiveChange({ item }: { item: MarketInfo }) {
  return <Change change={useLiveChange(item)} />;
}

/** The price for screen readers, politely, at most every 30 s, unless the reader pauses it. */
function PriceAnnouncer({
  item,
  nowPrice,
  locale,
  speak,
}: {
  item: MarketInfo;
  nowPrice: string | undefined;
  locale: string;
  speak: boolean;
}) {
  const { t } = useTranslation();
  const change = useLiveChange(item);
  const [announcement, setAnnouncement] = useState('');
  const lastAnnounced = useRef(0);
  // Paused: what was said is not said again when it resumes.
  useEffect(() => {
    if (!speak) setAnnouncement('');
  }, [speak]);
  useEffect(() => {
    if (!nowPrice) return;
    const now = Date.now();
    if (now - lastAnnounced.current < ANNOUNCE_EVERY_MS) return;
    lastAnnounced.current = now;
    const dir = direction(change);
    setAnnouncement(
      t('market.announce', {
        name: item.appName,
        price: price(nowPrice, locale),
        direction: dir === 'down' ? t('market.down') : t('market.up'),
        change: percent(change, locale),
      }),
    );
  }, [nowPrice, change, item.appName, locale, t]);
  return (
    <p className="visually-hidden" aria-live="polite" data-testid="price-announcer">
      {speak ? announcement : ''}
    </p>
  );
}

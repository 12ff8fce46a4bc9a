import {
  Code,
  type Direction,
  type MarketItem,
  parseMinor,
  SETTLEMENT_SCALE,
  type TicketFigures,
  type TradingTerms,
} from '@swx/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { use, useDeferredValue, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { formatAmount } from '../../app/money.ts';
import { newRequestId } from '../../app/requestId.ts';
import { useClientState } from '../../app/state.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { LoginLinks } from '../../shell/LoginLinks.tsx';
import { Field } from '../../ui/Field.tsx';
import { focusFirstInvalid } from '../../ui/focus.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { type Quote, quoteOf } from '../market/live.ts';
import { ConfirmOrder, type Snapshot } from './ConfirmOrder.tsx';
import { FigureList, StopField, useFigureRows, useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import { tradeTexts } from './texts.ts';
import {
  autoCloseKey,
  checkTicket,
  defaultStops,
  stepLots,
  stopIssues,
  stopMessage,
  stopsOfFigures,
  type TicketError,
} from './ticket.ts';

/** The preview follows the market once a second while the ticket is valid. */
const PREVIEW_EVERY_MS = 1_000;
/** Typing settles for this long before the ticket is priced. */
const DEBOUNCE_MS = 300;
/** Screen readers hear the figures when the ticket changes, and otherwise at most this often. */
const ANNOUNCE_EVERY_MS = 20_000;

/**
 * The order ticket of the currency page: its own chunk, loaded with the page. `onQuote` hears the
 * quote the ticket's figures are priced at (null while it has none), so the page shows that tick.
 */
export default function OrderTicket({
  item,
  onQuote,
}: {
  item: MarketItem;
  onQuote?: ((quote: Quote | null) => void) | undefined;
}) {
  use(tradeTexts);
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const terms = useQuery(tradeQueries.terms(language, item.id));
  // The ticket drawn from its terms as they arrive at a transition's priority: in slices, not in
  // the task that brought them (a query's update renders synchronously).
  const shown = useDeferredValue(terms.data);
  if (terms.isPending) return <Loading />;
  if (terms.isError) {
    const unlisted =
      terms.error instanceof ApiFailure &&
      (terms.error.code === Code.NOT_FOUND || terms.error.code === Code.OPTIONS_PRODUCT_INCORRECT);
    return unlisted ? (
      <p className="notice">{t('trade.notTradable')}</p>
    ) : (
      <Failed message={terms.error.message} onRetry={() => void terms.refetch()} />
    );
  }
  if (!shown) return <Loading />;
  return <Ticket item={item} terms={shown} onQuote={onQuote} />;
}

function useAvailableUsdt(): string | null {
  const user = useClientState((s) => s.userInfo);
  const isLogin = useClientState((s) => s.isLogin);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const balances = useQuery({
    ...ledgerQueries.balances(user?.id ?? 0, book),
    enabled: isLogin && user !== null,
  });
  if (!isLogin) return null;
  return balances.data?.balances.find((row) => row.asset === 'USDT')?.available ?? null;
}

/**
 * What one lot is: "1 BTC" or "100,000 EUR" when the code names its base asset before the quote
 * currency, else "50 × ESF" (the lot is that many times the price).
 */
function lotUnits(terms: TradingTerms, size: string): string {
  const quote = terms.quoteCurrency;
  const base =
    terms.code.endsWith(quote) && terms.code.length > quote.length
      ? terms.code.slice(0, -quote.length)
      : null;
  return base ? `${size} ${base}` : `${size} × ${terms.code}`;
}

function Terms({ terms }: { terms: TradingTerms }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <section className="trade-terms" aria-labelledby="trade-terms-title">
      <h3 id="trade-terms-title">{t('trade.terms', { code: terms.code })}</h3>
      <dl className="figures compact">
        <div data-term="lotSize">
          <dt>{t('trade.lotSize')}</dt>
          <dd>
            {t('trade.lotSizeValue', { size: lotUnits(terms, formatAmount(f.language, terms.lotSize, 0)) })}
          </dd>
        </div>
        <div data-term="feeRate">
          <dt>{t('trade.feeRate')}</dt>
          <dd>{t('trade.feeRateValue', { rate: f.ratio(terms.feeRate) })}</dd>
        </div>
        <div data-term="spreadRate">
          <dt>{t('trade.spreadRate')}</dt>
          <dd>{t('trade.spreadRateValue', { rate: f.ratio(terms.spreadRate) })}</dd>
        </div>
        <div data-term="maxLeverage">
          <dt>{t('trade.maxLeverage')}</dt>
          <dd>{f.leverage(terms.maxLeverage)}</dd>
        </div>
        <div data-term="stopOut">
          <dt>{t('trade.stopOut')}</dt>
          <dd>{t('trade.stopOutValue', { percent: f.ratio(`${terms.stopOutPercent}e-2`) })}</dd>
        </div>
      </dl>
    </section>
  );
}

function Ticket({
  item,
  terms,
  onQuote,
}: {
  item: MarketItem;
  terms: TradingTerms;
  onQuote?: ((quote: Quote | null) => void) | undefined;
}) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const isLogin = useClientState((s) => s.isLogin);
  const available = useAvailableUsdt();
  const formId = useId();

  const [direction, setDirection] = useState<Direction>('long');
  const [lots, setLots] = useState(terms.minLots);
  const [leverage, setLeverage] = useState(terms.leverages[0] ?? 1);
  const [stopLoss, setStopLoss] = useState('');
  const [takeProfit, setTakeProfit] = useState('');
  const [autoClose, setAutoClose] = useState<number | null>(null);
  /** The (direction, leverage) the current stops were defaulted for; null once the user typed them. */
  const [defaultedFor, setDefaultedFor] = useState<string | null>('');
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [requestId] = useState(newRequestId);

  // Sensible stops from the current price so the ticket works at once (and after a direction change).
  useEffect(() => {
    const key = `${direction}:${leverage}`;
    if (defaultedFor === null || defaultedFor === key) return;
    const stops = defaultStops(direction, item.bid, item.ask, leverage, terms);
    setStopLoss(stops.stopLoss);
    setTakeProfit(stops.takeProfit);
    setDefaultedFor(key);
  }, [direction, leverage, defaultedFor, item.bid, item.ask, terms]);

  const check = checkTicket(
    { direction, lots, leverage, stopLoss, takeProfit, autoCloseAfter: autoClose },
    terms,
  );
  const bodyKey = check.body ? JSON.stringify(check.body) : '';
  const [debouncedKey, setDebouncedKey] = useState(bodyKey);
  useEffect(() => {
    const timer = setTimeout(() => setDebouncedKey(bodyKey), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [bodyKey]);
  const settled = bodyKey !== '' && debouncedKey === bodyKey;
  const marketOpen = terms.open;

  const language = useClientState((s) => s.language);
  // The quote is signed for the customer and the book that asked: both are in the key.
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const preview = useQuery({
    ...tradeQueries.preview(userId, book, language, debouncedKey),
    enabled: debouncedKey !== '' && marketOpen,
    refetchInterval: (query) => (query.state.status === 'error' ? false : PREVIEW_EVERY_MS),
    placeholderData: keepPreviousData,
    gcTime: 5_000,
  });
  const fresh: TicketFigures | null =
    settled && marketOpen && preview.data && !preview.isPlaceholderData ? preview.data : null;
  const shown = marketOpen && bodyKey !== '' ? (preview.data ?? null) : null;
  const failure = settled && preview.isError ? preview.error : null;
  const closedNow =
    !marketOpen || (failure instanceof ApiFailure && failure.code === Code.NOT_AVAILABLE_FOR_TRADING);
  const serverStops =
    failure instanceof ApiFailure && failure.code === Code.INVALID_INPUT ? stopIssues(failure.data) : null;
  const stopKey = stopMessage(serverStops ?? (fresh ? stopsOfFigures(fresh.unreasonable) : null));
  const insufficient =
    fresh !== null && available !== null
      ? parseMinor(fresh.cost, SETTLEMENT_SCALE) > parseMinor(available, SETTLEMENT_SCALE)
      : false;
  const canReview = isLogin && !closedNow && fresh !== null && stopKey === null && !insufficient;

  // The page shows the same bid and ask as these figures, from the same tick.
  const quotedBid = !closedNow && shown ? shown.bid : null;
  const quotedAsk = !closedNow && shown ? shown.ask : null;
  // A layout effect: the page re-renders before the browser paints, so no frame shows two quotes.
  useLayoutEffect(() => {
    onQuote?.(quotedBid !== null && quotedAsk !== null ? quoteOf(quotedBid, quotedAsk) : null);
  }, [onQuote, quotedBid, quotedAsk]);
  useLayoutEffect(() => () => onQuote?.(null), [onQuote]);

  // A polite, throttled summary for screen readers: on each change of the ticket, else rarely.
  const [announcement, setAnnouncement] = useState('');
  const lastAnnounced = useRef({ at: 0, key: '' });
  useEffect(() => {
    if (!fresh) return;
    const now = Date.now();
    if (lastAnnounced.current.key === debouncedKey && now - lastAnnounced.current.at < ANNOUNCE_EVERY_MS)
      return;
    lastAnnounced.current = { at: now, key: debouncedKey };
    setAnnouncement(
      t('trade.announce', {
        direction: direction === 'long' ? t('trade.long') : t('trade.short'),
        price: f.price(fresh.price),
        margin: f.usdt(fresh.margin),
        fee: f.usdt(fresh.fee),
        cost: f.usdt(fresh.cost),
      }),
    );
  }, [fresh, debouncedKey, direction, t, f]);

  const errorOf = (field: TicketError['field']): string | undefined => {
    if (!attempted && !touched.has(field)) return undefined;
    const error = check.errors.find((e) => e.field === field);
    if (!error) return undefined;
    // The price's decimals are a count: the plural form and the number follow the language.
    if (error.key === 'priceFormat') return t('trade.error.priceFormat', { count: terms.priceDecimals });
    return t(`trade.error.${error.key}`, {
      min: f.decimal(terms.minLots),
      max: f.decimal(terms.maxLots),
      step: f.decimal(terms.lotStep),
    });
  };
  const touch = (field: string) => () => setTouched((s) => new Set(s).add(field));
  const stopLossError =
    errorOf('stopLoss') ?? (stopKey === 'stopLoss' ? t('trade.error.stopLoss') : undefined);
  const takeProfitError =
    errorOf('takeProfit') ?? (stopKey === 'takeProfit' ? t('trade.error.takeProfit') : undefined);

  const rows = useFigureRows(shown ?? EMPTY_FIGURES, direction);
  if (available !== null) {
    const costIndex = rows.findIndex((row) => row.key === 'cost');
    rows.splice(costIndex + 1, 0, {
      key: 'available',
      label: t('trade.available'),
      value: f.usdt(available),
      raw: available,
    });
  }
  const pricePlaceholder = useMemo(
    () => (terms.priceDecimals > 0 ? `0.${'0'.repeat(terms.priceDecimals)}` : '0'),
    [terms],
  );

  return (
    <div className="ticket">
      <BookBadge className="ticket-book" />
      <form
        id={formId}
        className="ticket-form"
        noValidate
        aria-label={t('trade.ticket', { code: terms.code })}
        onSubmit={(event) => {
          event.preventDefault();
          setAttempted(true);
          focusFirstInvalid(event.currentTarget);
          if (canReview && fresh && check.body)
            setSnapshot({ body: check.body, figures: fresh, receivedAt: preview.dataUpdatedAt });
        }}
      >
        <fieldset className="direction-choice">
          <legend>{t('trade.direction')}</legend>
          {(['long', 'short'] as const).map((value) => (
            <button
              key={value}
              type="button"
              className={`direction-button ${value}`}
              aria-pressed={direction === value}
              data-direction={value}
              onClick={() => {
                if (value === direction) return;
                setDirection(value);
                // New side, new stops: the old ones sit on the wrong side of the price.
                setDefaultedFor('');
              }}
            >
              <span className="direction-name">
                <span aria-hidden="true">{value === 'long' ? '▲ ' : '▼ '}</span>
                {value === 'long' ? t('trade.long') : t('trade.short')}
              </span>
              <span className="direction-hint">
                {value === 'long' ? t('trade.longHint') : t('trade.shortHint')}
              </span>
            </button>
          ))}
        </fieldset>

        <Field
          label={t('trade.lots')}
          name="lots"
          inputMode="decimal"
          autoComplete="off"
          value={lots}
          hint={t('trade.lotsHint', {
            min: f.decimal(terms.minLots),
            max: f.decimal(terms.maxLots),
            step: f.decimal(terms.lotStep),
          })}
          error={errorOf('lots')}
          onChange={(event) => setLots(event.target.value)}
          onBlur={touch('lots')}
        >
          <button
            type="button"
            className="button ghost stepper"
            aria-label={t('trade.fewerLots')}
            onClick={() => setLots((v) => stepLots(v, -1, terms))}
          >
            −
          </button>
          <button
            type="button"
            className="button ghost stepper"
            aria-label={t('trade.moreLots')}
            onClick={() => setLots((v) => stepLots(v, 1, terms))}
          >
            +
          </button>
        </Field>

        <div className="field">
          <label htmlFor={`${formId}-leverage`}>{t('trade.leverage')}</label>
          <select
            className="control"
            id={`${formId}-leverage`}
            name="leverage"
            value={leverage}
            onChange={(event) => setLeverage(Number(event.target.value))}
          >
            {terms.leverages.map((value) => (
              <option key={value} value={value}>
                {f.leverage(value)}
              </option>
            ))}
          </select>
        </div>

        <div className="stops">
          <StopField
            name="stopLoss"
            direction={direction}
            placeholder={pricePlaceholder}
            value={stopLoss}
            error={stopLossError}
            joint={stopKey === 'both'}
            onValue={(value) => {
              setStopLoss(value);
              setDefaultedFor(null);
            }}
            onBlur={touch('stopLoss')}
          />
          <StopField
            name="takeProfit"
            direction={direction}
            placeholder={pricePlaceholder}
            value={takeProfit}
            error={takeProfitError}
            joint={stopKey === 'both'}
            onValue={(value) => {
              setTakeProfit(value);
              setDefaultedFor(null);
            }}
            onBlur={touch('takeProfit')}
          />
        </div>
        {stopKey === 'both' ? (
          <p id={`${formId}-both`} className="form-error" role="alert">
            {t('trade.error.both')}
          </p>
        ) : null}

        <div className="field">
          <label htmlFor={`${formId}-auto`}>{t('trade.autoClose')}</label>
          <select
            className="control"
            id={`${formId}-auto`}
            name="autoClose"
            aria-describedby={`${formId}-auto-hint`}
            value={autoClose ?? ''}
            onChange={(event) => setAutoClose(event.target.value === '' ? null : Number(event.target.value))}
          >
            <option value="">{t('trade.autoCloseNone')}</option>
            {terms.autoCloseChoices.map((seconds) => {
              const key = autoCloseKey(seconds);
              return (
                <option key={seconds} value={seconds}>
                  {key ? t(`trade.period.${key}`) : t('trade.period.hours', { count: seconds / 3600 })}
                </option>
              );
            })}
          </select>
          <p id={`${formId}-auto-hint`} className="field-hint">
            {t('trade.autoCloseHint')}
          </p>
        </div>
      </form>

      <section className="ticket-figures card-inset" aria-labelledby={`${formId}-figures`}>
        <h3 id={`${formId}-figures`}>{t('trade.figures')}</h3>
        {closedNow ? (
          <p id={`${formId}-closed`} className="notice" data-testid="market-closed">
            {t('trade.marketClosed')}
          </p>
        ) : shown ? (
          <>
            <p className="muted small">
              {t('trade.quoteTime')}: <time>{f.quoteTime(shown.quoteTime)}</time>
            </p>
            <FigureList rows={rows} className={fresh ? 'live' : 'stale'} />
          </>
        ) : failure && !serverStops ? (
          <Failed message={failure.message} onRetry={() => void preview.refetch()} />
        ) : (
          <p id={`${formId}-status`} className="muted">
            {bodyKey === '' ? t('trade.completeTicket') : t('trade.waiting')}
          </p>
        )}
        <p className="visually-hidden" aria-live="polite" data-testid="ticket-announcer">
          {announcement}
        </p>
        {insufficient ? (
          <p id={`${formId}-insufficient`} className="form-error" role="alert">
            {t('trade.insufficient')}
          </p>
        ) : null}
        {isLogin ? (
          <button
            type="submit"
            form={formId}
            className="button primary block large"
            disabled={closedNow}
            aria-disabled={!canReview || undefined}
            // A Review that cannot go on says why: the closed market, the balance, the stops, or
            // what the ticket still needs.
            aria-describedby={
              closedNow
                ? `${formId}-closed`
                : insufficient
                  ? `${formId}-insufficient`
                  : stopKey === 'both'
                    ? `${formId}-both`
                    : !shown && !(failure && !serverStops)
                      ? `${formId}-status`
                      : undefined
            }
          >
            {t('trade.review')}
          </button>
        ) : (
          <div className="login-to-trade">
            <p>{t('trade.loginToTrade')}</p>
            <div className="row">
              <LoginLinks />
            </div>
          </div>
        )}
      </section>

      <Terms terms={terms} />

      {snapshot ? (
        <ConfirmOrder
          snapshot={snapshot}
          terms={terms}
          requestId={requestId}
          onReplace={setSnapshot}
          onClose={() => setSnapshot(null)}
        />
      ) : null}
    </div>
  );
}

const EMPTY_FIGURES: TicketFigures = {
  quoteId: '',
  expiresAt: 0,
  quoteTime: 0,
  price: '0',
  bid: '0',
  ask: '0',
  spread: '0',
  notional: '0',
  margin: '0',
  fee: '0',
  cost: '0',
  profitAtTakeProfit: '0',
  lossAtStopLoss: '0',
  liquidationPrice: '0',
  unreasonable: [],
};

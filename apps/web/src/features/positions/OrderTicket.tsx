import { Code, type Direction, type MarketItem, type TicketFigures, type TradingTerms } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { use, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { newRequestId } from '../../app/requestId.ts';
import { useClientState } from '../../app/state.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { LoginLinks } from '../../shell/LoginLinks.tsx';
import { focusFirstInvalid } from '../../ui/focus.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import type { Quote } from '../market/live.ts';
import { ConfirmOrder, type Snapshot } from './ConfirmOrder.tsx';
import { PendingPanel, TicketKind, usePendingTicket } from './PendingTicket.tsx';
import { FigureList, type FigureRow, useFigureRows, useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import {
  AutoCloseField,
  LeverageField,
  LotsField,
  StopFields,
  Terms,
  TrailingField,
} from './TicketFields.tsx';
import { tradeTexts } from './texts.ts';
import { checkTicket, defaultStops, type Stops, type TicketCheck, type TicketError } from './ticket.ts';
import {
  type TicketPreview,
  useAvailableUsdt,
  useQuoteReport,
  useTicketAnnouncement,
  useTicketPreview,
} from './ticketPreview.ts';

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

/** What the customer typed on the ticket; its stops defaulted from the price until they type their own. */
function useTicketInputs(item: MarketItem, terms: TradingTerms) {
  const [direction, setDirection] = useState<Direction>('long');
  const [lots, setLots] = useState(terms.minLots);
  const [leverage, setLeverage] = useState(terms.leverages[0] ?? 1);
  const [stops, setStops] = useState<Stops>({ stopLoss: '', takeProfit: '' });
  const [autoClose, setAutoClose] = useState<number | null>(null);
  const [trailing, setTrailing] = useState('');
  /** The (direction, leverage) the current stops were defaulted for; null once the user typed them. */
  const [defaultedFor, setDefaultedFor] = useState<string | null>('');

  // Sensible stops from the current price so the ticket works at once (and after a direction change).
  useEffect(() => {
    const key = `${direction}:${leverage}`;
    if (defaultedFor === null || defaultedFor === key) return;
    setStops(defaultStops(direction, item.bid, item.ask, leverage, terms));
    setDefaultedFor(key);
  }, [direction, leverage, defaultedFor, item.bid, item.ask, terms]);

  const check = checkTicket(
    { direction, lots, leverage, ...stops, autoCloseAfter: autoClose, trailingDistance: trailing },
    terms,
  );
  // The order type, and a pending order's level and expiry (PendingTicket.tsx).
  const pending = usePendingTicket();
  return {
    pending,
    direction,
    lots,
    leverage,
    stops,
    autoClose,
    trailing,
    check,
    setLots,
    setTrailing,
    setLeverage,
    setAutoClose,
    chooseDirection: (value: Direction) => {
      if (value === direction) return;
      setDirection(value);
      // New side, new stops: the old ones sit on the wrong side of the price.
      setDefaultedFor('');
    },
    typeStop: (name: keyof Stops, value: string) => {
      setStops((typed) => ({ ...typed, [name]: value }));
      setDefaultedFor(null);
    },
  };
}

/**
 * The errors of the ticket's fields, each once the field was left or the customer tried to go on;
 * a stop the server or the figures refuse, under that stop.
 */
function useTicketErrors(
  check: TicketCheck,
  terms: TradingTerms,
  stopKey: TicketPreview['stopKey'],
  serverTrailing: boolean,
) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
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
  return {
    lots: errorOf('lots'),
    stopLoss: errorOf('stopLoss') ?? (stopKey === 'stopLoss' ? t('trade.error.stopLoss') : undefined),
    takeProfit: errorOf('takeProfit') ?? (stopKey === 'takeProfit' ? t('trade.error.takeProfit') : undefined),
    trailingDistance:
      errorOf('trailingDistance') ?? (serverTrailing ? t('trade.error.trailingDistance') : undefined),
    touch: (field: string) => setTouched((s) => new Set(s).add(field)),
    attempt: () => setAttempted(true),
  };
}

/** The figures shown: the preview's, with the balance available after the cost once logged in. */
function useTicketRows(shown: TicketFigures | null, direction: Direction, available: string | null) {
  const { t } = useTranslation();
  const f = useTradeFormat();
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
  return rows;
}

/**
 * Review: submits the ticket. A Review that cannot go on says why: the closed market, the balance,
 * the stops, or what the ticket still needs.
 */
function ReviewButton({ formId, preview }: { formId: string; preview: TicketPreview }) {
  const { t } = useTranslation();
  const { closedNow, insufficient, stopKey, shown, failure, serverStops, serverTrailing, canReview } =
    preview;
  return (
    <button
      type="submit"
      form={formId}
      className="button primary block large"
      disabled={closedNow}
      aria-disabled={!canReview || undefined}
      aria-describedby={
        closedNow
          ? `${formId}-closed`
          : insufficient
            ? `${formId}-insufficient`
            : stopKey === 'both'
              ? `${formId}-both`
              : !shown && !(failure && !serverStops && !serverTrailing)
                ? `${formId}-status`
                : undefined
      }
    >
      {t('trade.review')}
    </button>
  );
}

/**
 * The ticket's figures (or why there are none: the market closed, the failure, what the ticket
 * still needs), their summary for screen readers, a balance short of the cost, and Review; logged
 * out, the way in.
 */
function TicketFigurePanel({
  formId,
  preview,
  rows,
  announcement,
}: {
  formId: string;
  preview: TicketPreview;
  rows: FigureRow[];
  announcement: string;
}) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const isLogin = useClientState((s) => s.isLogin);
  const { closedNow, shown, fresh, failure, serverStops, serverTrailing } = preview;
  return (
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
      ) : failure && !serverStops && !serverTrailing ? (
        <Failed message={failure.message} onRetry={() => void preview.query.refetch()} />
      ) : (
        <p id={`${formId}-status`} className="muted">
          {preview.bodyKey === '' ? t('trade.completeTicket') : t('trade.waiting')}
        </p>
      )}
      <p className="visually-hidden" aria-live="polite" data-testid="ticket-announcer">
        {announcement}
      </p>
      {preview.insufficient ? (
        <p id={`${formId}-insufficient`} className="form-error" role="alert">
          {t('trade.insufficient')}
        </p>
      ) : null}
      {isLogin ? (
        <ReviewButton formId={formId} preview={preview} />
      ) : (
        <div className="login-to-trade">
          <p>{t('trade.loginToTrade')}</p>
          <div className="row">
            <LoginLinks />
          </div>
        </div>
      )}
    </section>
  );
}

/** The ticket's trailing stop distance (optional). */
function TicketTrailing({
  input,
  errors,
  placeholder,
}: {
  input: ReturnType<typeof useTicketInputs>;
  errors: ReturnType<typeof useTicketErrors>;
  placeholder: string;
}) {
  // A pending order has no trailing stop.
  if (input.pending.type !== 'market') return null;
  return (
    <TrailingField
      direction={input.direction}
      placeholder={placeholder}
      value={input.trailing}
      error={errors.trailingDistance}
      onChange={input.setTrailing}
      onBlur={() => errors.touch('trailingDistance')}
    />
  );
}

/** The ticket's fields: side, lots, leverage, stops, auto close; sent, the customer tries to go on to review. */
function TicketForm({
  formId,
  terms,
  input,
  errors,
  bothStops,
  onReview,
}: {
  formId: string;
  terms: TradingTerms;
  input: ReturnType<typeof useTicketInputs>;
  errors: ReturnType<typeof useTicketErrors>;
  bothStops: boolean;
  onReview: () => void;
}) {
  const { t } = useTranslation();
  const pricePlaceholder = useMemo(
    () => (terms.priceDecimals > 0 ? `0.${'0'.repeat(terms.priceDecimals)}` : '0'),
    [terms],
  );
  return (
    <form
      id={formId}
      className="ticket-form"
      noValidate
      aria-label={t('trade.ticket', { code: terms.code })}
      onSubmit={(event) => {
        event.preventDefault();
        errors.attempt();
        focusFirstInvalid(event.currentTarget);
        onReview();
      }}
    >
      <TicketKind input={input} decimals={terms.priceDecimals} placeholder={pricePlaceholder} />
      <LotsField
        terms={terms}
        value={input.lots}
        error={errors.lots}
        onChange={input.setLots}
        onBlur={() => errors.touch('lots')}
      />
      <LeverageField
        id={`${formId}-leverage`}
        leverages={terms.leverages}
        value={input.leverage}
        onChange={input.setLeverage}
      />
      <StopFields
        direction={input.direction}
        placeholder={pricePlaceholder}
        stops={input.stops}
        errors={errors}
        both={bothStops}
        bothId={`${formId}-both`}
        onChange={input.typeStop}
        onBlur={errors.touch}
      />
      <TicketTrailing input={input} errors={errors} placeholder={pricePlaceholder} />
      <AutoCloseField
        id={`${formId}-auto`}
        choices={terms.autoCloseChoices}
        value={input.autoClose}
        onChange={input.setAutoClose}
      />
    </form>
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
  const available = useAvailableUsdt();
  const formId = useId();
  const input = useTicketInputs(item, terms);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [requestId] = useState(newRequestId);
  const preview = useTicketPreview(input.check, terms, available);
  useQuoteReport(onQuote, preview);
  const announcement = useTicketAnnouncement(preview, input.direction);
  // A pending order's stops are judged at its level (by its own quote), not at the market now.
  const market = input.pending.type === 'market';
  const stopKey = market ? preview.stopKey : null;
  const errors = useTicketErrors(input.check, terms, stopKey, market && preview.serverTrailing);
  const rows = useTicketRows(preview.shown, input.direction, available);
  const review = () => {
    const body = input.check.body;
    if (!market) input.pending.review(body, terms.priceDecimals);
    else if (preview.canReview && preview.fresh && body)
      setSnapshot({ body, figures: preview.fresh, receivedAt: preview.query.dataUpdatedAt });
  };
  return (
    <div className="ticket">
      <BookBadge className="ticket-book" />
      <TicketForm
        formId={formId}
        terms={terms}
        input={input}
        errors={errors}
        bothStops={stopKey === 'both'}
        onReview={review}
      />
      {market ? (
        <TicketFigurePanel formId={formId} preview={preview} rows={rows} announcement={announcement} />
      ) : (
        <PendingPanel
          formId={formId}
          pending={input.pending}
          body={input.check.body}
          decimals={terms.priceDecimals}
        />
      )}
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
  issuedAt: 0,
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

import {
  Code,
  QUOTE_VALID_SECONDS,
  type TicketBody,
  type TicketFigures,
  type TradingTerms,
} from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, type RefObject, use, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { FormError } from '../../ui/Field.tsx';
import { QuoteConfirm, useModal } from '../../ui/product/QuoteConfirm.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { DirectionLabel, type FigureRow, useFigureRows, useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import { tradeTexts } from './texts.ts';
import { autoCloseKey, stopIssues, stopMessage, stopsOfFigures } from './ticket.ts';

/**
 * What the confirm step shows and sends: one ticket, the figures of one quote (with the quote id
 * that commits them), and when those figures arrived (the browser's clock, so a skewed clock does
 * not shorten or stretch the quote).
 */
export type Snapshot = { body: TicketBody; figures: TicketFigures; receivedAt: number };

/** The server commits a quote this long after its tick (10032 after that). */
const QUOTE_LIFETIME_MS = QUOTE_VALID_SECONDS * 1000;
/** New figures are fetched this long before the quote runs out, so a confirm sent then still counts. */
const REFRESH_MARGIN_MS = 800;
/** Screen readers hear that the figures were renewed at most this often, unless the user confirmed. */
const ANNOUNCE_EVERY_MS = 20_000;

type Renewal =
  | { state: 'none' }
  | { state: 'refreshing' }
  | { state: 'renewed' }
  | { state: 'failed'; message: string };

/**
 * The figures renewed in place: fetched again before the quote runs out (or when the server says it
 * has), the figures shown before kept to mark what changed, and what screen readers hear of it.
 */
function useRenewal(snapshot: Snapshot, onReplace: (next: Snapshot) => void) {
  const { t } = useTranslation();
  const [renewal, setRenewal] = useState<Renewal>({ state: 'none' });
  /** The figures shown before the last renewal, to mark what changed. */
  const [previous, setPrevious] = useState<TicketFigures | null>(null);
  /** The renewal screen readers hear about (its text follows the marks), or a failure's message. */
  const [announcement, setAnnouncement] = useState<{ quoteTime: number; at: number } | string>('');
  const lastAnnounced = useRef(0);
  // The latest snapshot and whether the dialog is still mounted, for answers that arrive later.
  const current = useRef(snapshot);
  current.current = snapshot;
  const mounted = useRef(true);
  const renewing = useRef(false);
  /** Set while a confirm is on its way: figures renewed meanwhile must not replace what was sent. */
  const sending = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** Fetches the figures of the current tick and shows them in place of the expired ones. */
  const renew = useCallback(
    async (announce: boolean) => {
      if (renewing.current) return;
      renewing.current = true;
      setRenewal({ state: 'refreshing' });
      const before = current.current;
      try {
        const next = await callApi('previewOptions', { body: before.body });
        if (!mounted.current) return;
        if (sending.current) {
          // The user confirmed the figures on screen meanwhile; the server's answer decides.
          setRenewal({ state: 'none' });
          return;
        }
        setPrevious(before.figures);
        setRenewal({ state: 'renewed' });
        onReplace({ body: before.body, figures: next, receivedAt: Date.now() });
        const now = Date.now();
        if (announce || now - lastAnnounced.current >= ANNOUNCE_EVERY_MS) {
          lastAnnounced.current = now;
          setAnnouncement({ quoteTime: next.quoteTime, at: now });
        }
      } catch (error) {
        if (!mounted.current) return;
        const message = error instanceof ApiFailure ? error.message : t('state.error');
        setRenewal({ state: 'failed', message });
        setAnnouncement(message);
      } finally {
        renewing.current = false;
      }
    },
    [onReplace, t],
  );
  return { renewal, previous, announcement, renew, sending };
}

/**
 * Opens the position at exactly the quote shown (its `quoteId`); a quote that ran out on its way
 * (10032) is renewed in place for the user to confirm; a refusal is worded.
 */
function useOpenOrder(
  requestId: string,
  dialog: RefObject<HTMLDialogElement | null>,
  { renew, sending }: Pick<ReturnType<typeof useRenewal>, 'renew' | 'sending'>,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState('');
  const open = useMutation({
    mutationFn: (s: Snapshot) =>
      callApi('openPosition', { body: { ...s.body, quoteId: s.figures.quoteId, requestId } }),
    onSuccess: (order) => {
      sending.current = false;
      void queryClient.invalidateQueries({ queryKey: tradeQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      dialog.current?.close();
      announce(t('trade.openedMessage', { code: order.code }));
      navigate(`/profile/orders/${order.id}`);
    },
    onError: (error) => {
      sending.current = false;
      if (error instanceof ApiFailure && error.code === Code.PRICE_CHANGED) {
        // The quote ran out on its way: show the current figures and let the user confirm those.
        setFailure('');
        void renew(true);
        return;
      }
      const stops =
        error instanceof ApiFailure && error.code === Code.INVALID_INPUT ? stopIssues(error.data) : null;
      const key = stopMessage(stops);
      setFailure(
        key ? t(`trade.error.${key}`) : error instanceof ApiFailure ? error.message : t('state.error'),
      );
    },
  });
  const confirm = (snapshot: Snapshot) => {
    setFailure('');
    sending.current = true;
    open.mutate(snapshot);
  };
  return { confirming: open.isPending, failure, confirm };
}

/**
 * Renews the figures shortly before their quote runs out; not while `paused` (a confirm on its way,
 * whose answer decides, a renewal loading, or one that failed: the user retries).
 */
function useRenewBeforeExpiry(
  receivedAt: number,
  paused: boolean,
  renew: (announce: boolean) => Promise<void>,
) {
  useEffect(() => {
    if (paused) return;
    const due = receivedAt + QUOTE_LIFETIME_MS - REFRESH_MARGIN_MS - Date.now();
    const timer = window.setTimeout(() => void renew(false), Math.max(0, due));
    return () => window.clearTimeout(timer);
  }, [receivedAt, paused, renew]);
}

/** The figures' rows, and the old text of each the reader sees changed since `previous`. */
function useMarks(
  figures: TicketFigures,
  previous: TicketFigures | null,
  direction: TicketBody['direction'],
) {
  const f = useTradeFormat();
  const rows = useFigureRows(figures, direction);
  const before = new Map(useFigureRows(previous ?? figures, direction).map((row) => [row.key, row]));
  // A figure is marked when what the reader sees changed (amounts show fewer places than they carry).
  const marks = new Map<string, string>();
  if (previous !== null) {
    for (const row of rows) {
      const old = before.get(row.key);
      if (old && shownText(old, f.usdt) !== shownText(row, f.usdt))
        marks.set(row.key, shownText(old, f.usdt));
    }
  }
  return { rows, marks };
}

/** What the order is: instrument, direction, lots, leverage, stops and auto-close. */
function OrderTerms({ body, terms }: { body: TicketBody; terms: TradingTerms }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const autoClose =
    body.autoCloseAfter === null || body.autoCloseAfter === undefined
      ? t('trade.autoCloseNone')
      : t(`trade.period.${autoCloseKey(body.autoCloseAfter) ?? 'hour1'}`);
  return (
    <dl className="figures compact confirm-ticket">
      <div>
        <dt>{t('trade.instrument')}</dt>
        <dd>{terms.code}</dd>
      </div>
      <div>
        <dt>{t('trade.direction')}</dt>
        <dd>
          <DirectionLabel direction={body.direction} />
        </dd>
      </div>
      <div data-figure="lots" data-value={body.lots}>
        <dt>{t('trade.lots')}</dt>
        <dd>{f.lots(body.lots)}</dd>
      </div>
      <div data-figure="leverage" data-value={body.leverage}>
        <dt>{t('trade.leverage')}</dt>
        <dd>{f.leverage(body.leverage)}</dd>
      </div>
      <div data-figure="stopLoss" data-value={body.stopLoss}>
        <dt>{t('trade.stopLoss')}</dt>
        <dd>{f.price(body.stopLoss)}</dd>
      </div>
      <div data-figure="takeProfit" data-value={body.takeProfit}>
        <dt>{t('trade.takeProfit')}</dt>
        <dd>{f.price(body.takeProfit)}</dd>
      </div>
      {body.trailingDistance ? (
        <div data-figure="trailingDistance" data-value={body.trailingDistance}>
          <dt>{t('trade.trailingDistance')}</dt>
          <dd>{f.price(body.trailingDistance)}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('trade.autoClose')}</dt>
        <dd>{autoClose}</dd>
      </div>
    </dl>
  );
}

/** The quote's figures, each the renewal changed marked in words with its old value. */
function QuotedFigures({
  rows,
  marks,
  refreshing,
}: {
  rows: FigureRow[];
  marks: Map<string, string>;
  refreshing: boolean;
}) {
  const { t } = useTranslation();
  return (
    <dl className="figures confirm-figures" aria-busy={refreshing || undefined}>
      {rows.map((row) => {
        const was = marks.get(row.key);
        return (
          <div
            key={row.key}
            data-figure={row.key}
            data-value={row.raw}
            data-changed={was !== undefined ? 'true' : undefined}
          >
            <dt>{row.label}</dt>
            <dd>
              <span className="figure-shown">{row.value}</span>
              {was !== undefined ? (
                <span className="changed-mark">
                  <span className="changed-tag">
                    <span aria-hidden="true">↻ </span>
                    {t('trade.confirm.changed')}
                  </span>{' '}
                  <span className="changed-was">{t('trade.confirm.was', { value: was })}</span>
                </span>
              ) : null}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** Where the renewal is: loading, renewed (changed or the same), or failed with a retry (`id`). */
function RenewalNotice({
  id,
  renewal,
  renewed,
  changed,
  onRetry,
}: {
  id: string;
  renewal: Renewal;
  /** The words of the last renewal, once there was one. */
  renewed: string | null;
  changed: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (renewal.state === 'failed')
    return (
      <div id={id} className="form-error" data-testid="requote" data-state="failed">
        <p>
          {renewal.message} {t('trade.confirm.refreshFailed')}
        </p>
        <button type="button" className="button ghost small" onClick={onRetry}>
          {t('action.retry')}
        </button>
      </div>
    );
  // After a first renewal the notice stays put while the next one loads (no flicker).
  if (renewed !== null)
    return (
      <p className="notice" data-testid="requote" data-state={changed ? 'changed' : 'same'}>
        {renewed}
      </p>
    );
  return renewal.state === 'refreshing' ? (
    <p className="notice" data-testid="requote" data-state="refreshing">
      {t('trade.confirm.refreshing')}
    </p>
  ) : null;
}

type ConfirmOrderProps = {
  snapshot: Snapshot;
  terms: TradingTerms;
  requestId: string;
  onReplace: (next: Snapshot) => void;
  onClose: () => void;
};

/** Says a renewal to screen readers (its words once its figures show), or a failure's message. */
function RenewalAnnouncer({
  announcement,
  quoteTime,
  renewed,
}: {
  announcement: string | { quoteTime: number };
  quoteTime: number;
  renewed: string;
}) {
  return (
    <p className="visually-hidden" aria-live="polite" data-testid="requote-announcer">
      {typeof announcement === 'string' ? announcement : announcement.quoteTime === quoteTime ? renewed : ''}
    </p>
  );
}

/** The refusal of figures whose stops the quote cannot take (`id`: what the confirm's `why` names). */
function RefusedStops({ id, figures }: { id: string; figures: TicketFigures }) {
  const { t } = useTranslation();
  return figures.unreasonable.length > 0 ? (
    <p id={id} className="form-error" role="alert">
      {t(`trade.error.${stopMessage(stopsOfFigures(figures.unreasonable)) ?? 'both'}`)}
    </p>
  ) : null;
}

/**
 * The "order confirm" screen, the product kit's quote confirm: a modal dialog (the browser traps
 * focus in it and Escape closes it) that says which book the order opens in, repeats every figure
 * of the quote, and opens the position at exactly that quote. A quote lives a few seconds: before it
 * runs out (or when the server says it has), the dialog fetches the current figures in place, marks
 * in words each figure that changed with its old value, and the user confirms what is shown.
 * Nothing ever opens at figures the dialog did not show.
 */
export function ConfirmOrder({ snapshot, terms, requestId, onReplace, onClose }: ConfirmOrderProps) {
  use(tradeTexts);
  const { t } = useTranslation();
  const f = useTradeFormat();
  const dialog = useModal();
  const id = useId();
  const renewing = useRenewal(snapshot, onReplace);
  const { renewal, previous, announcement, renew } = renewing;
  const { confirming, failure, confirm } = useOpenOrder(requestId, dialog, renewing);
  const expired = renewal.state === 'failed';
  useRenewBeforeExpiry(snapshot.receivedAt, confirming || expired || renewal.state === 'refreshing', renew);
  const { body, figures } = snapshot;
  const { rows, marks } = useMarks(figures, previous, body.direction);
  const time = f.quoteTime(figures.quoteTime);
  const renewedText =
    marks.size > 0 ? t('trade.confirm.updated', { time }) : t('trade.confirm.unchanged', { time });
  const refused = figures.unreasonable.length > 0;
  const blocked = confirming || expired || refused;
  return (
    <QuoteConfirm
      dialog={dialog}
      title={t('trade.confirm.title')}
      label={t('trade.figures')}
      testId="order-confirm"
      className="order-confirm"
      onClose={onClose}
      onConfirm={() => {
        if (!blocked) confirm(snapshot);
      }}
      notices={
        <>
          <RenewalNotice
            id={`${id}-expired`}
            renewal={renewal}
            renewed={previous !== null ? renewedText : null}
            changed={marks.size > 0}
            onRetry={() => void renew(true)}
          />
          <RenewalAnnouncer announcement={announcement} quoteTime={figures.quoteTime} renewed={renewedText} />
        </>
      }
      failure={
        <>
          <RefusedStops id={`${id}-refused`} figures={figures} />
          <FormError message={failure} />
        </>
      }
      cancel={t('trade.confirm.cancel')}
      confirm={confirming ? t('trade.confirm.opening') : t('trade.confirm.confirm')}
      disabled={blocked}
      why={refused ? `${id}-refused` : expired ? `${id}-expired` : undefined}
      buttons="confirm-actions row end"
    >
      <p className="muted small">{t('trade.confirm.intro')}</p>
      <OrderTerms body={body} terms={terms} />
      <p className="small" data-testid="confirm-quote-time" data-value={figures.quoteTime}>
        {t('trade.quoteTime')}: <time>{time}</time>
      </p>
      <QuotedFigures rows={rows} marks={marks} refreshing={renewal.state === 'refreshing'} />
    </QuoteConfirm>
  );
}

/** A figure as the reader sees it (a profit row shows its amount with a sign). */
function shownText(
  row: { value: ReactNode; raw: string },
  usdt: (amount: string, sign?: boolean) => string,
): string {
  return typeof row.value === 'string' ? row.value : usdt(row.raw, true);
}

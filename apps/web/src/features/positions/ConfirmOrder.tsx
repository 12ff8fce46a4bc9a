import {
  Code,
  QUOTE_VALID_SECONDS,
  type TicketBody,
  type TicketFigures,
  type TradingTerms,
} from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, use, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, FormError } from '../../ui/Field.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { DirectionLabel, useFigureRows, useTradeFormat } from './parts.tsx';
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
 * The "order confirm" screen: a modal dialog (the browser traps focus in it and Escape closes it)
 * that says which book the order opens in, repeats every figure of the quote, and opens the
 * position at exactly that quote (its `quoteId`). A quote lives a few seconds: before it runs out
 * (or when the server says it has), the dialog fetches the current figures in place, marks in
 * words each figure that changed with its old value, and the user confirms what is shown. Nothing
 * ever opens at figures the dialog did not show. The title and the buttons stay in view; the
 * figures scroll between them.
 */
export function ConfirmOrder({
  snapshot,
  terms,
  requestId,
  onReplace,
  onClose,
}: {
  snapshot: Snapshot;
  terms: TradingTerms;
  requestId: string;
  onReplace: (next: Snapshot) => void;
  onClose: () => void;
}) {
  use(tradeTexts);
  const { t } = useTranslation();
  const f = useTradeFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [failure, setFailure] = useState('');
  const [renewal, setRenewal] = useState<Renewal>({ state: 'none' });
  /** The figures shown before the last renewal, to mark what changed. */
  const [previous, setPrevious] = useState<TicketFigures | null>(null);
  /** The renewal screen readers hear about (its text follows the marks), or a failure's message. */
  const [announcement, setAnnouncement] = useState<{ quoteTime: number; at: number } | string>('');
  const lastAnnounced = useRef(0);
  const { body, figures } = snapshot;

  // The latest snapshot and whether the dialog is still mounted, for answers that arrive later.
  const current = useRef(snapshot);
  current.current = snapshot;
  const mounted = useRef(true);
  const renewing = useRef(false);
  /** Set while a confirm is on its way: figures renewed meanwhile must not replace what was sent. */
  const sending = useRef(false);
  useEffect(() => {
    mounted.current = true;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
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

  // Renew the figures shortly before their quote runs out; not while a confirm is on its way (its
  // answer decides), and not after a failed renewal (the user retries).
  const confirming = open.isPending;
  const waiting = renewal.state === 'refreshing' || renewal.state === 'failed';
  const expired = renewal.state === 'failed';
  useEffect(() => {
    if (confirming || waiting) return;
    const due = snapshot.receivedAt + QUOTE_LIFETIME_MS - REFRESH_MARGIN_MS - Date.now();
    const timer = window.setTimeout(() => void renew(false), Math.max(0, due));
    return () => window.clearTimeout(timer);
  }, [snapshot.receivedAt, confirming, waiting, renew]);

  const rows = useFigureRows(figures, body.direction);
  const before = new Map(useFigureRows(previous ?? figures, body.direction).map((row) => [row.key, row]));
  // A figure is marked when what the reader sees changed (amounts show fewer places than they carry).
  const marks = new Map<string, string>();
  if (previous !== null) {
    for (const row of rows) {
      const old = before.get(row.key);
      if (old && shownText(old, f.usdt) !== shownText(row, f.usdt))
        marks.set(row.key, shownText(old, f.usdt));
    }
  }
  const renewedText =
    marks.size > 0
      ? t('trade.confirm.updated', { time: f.quoteTime(figures.quoteTime) })
      : t('trade.confirm.unchanged', { time: f.quoteTime(figures.quoteTime) });
  const autoClose =
    body.autoCloseAfter === null || body.autoCloseAfter === undefined
      ? t('trade.autoCloseNone')
      : t(`trade.period.${autoCloseKey(body.autoCloseAfter) ?? 'hour1'}`);
  const refused = figures.unreasonable.length > 0;

  return (
    <dialog
      ref={dialog}
      className="modal confirm-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="order-confirm"
    >
      <div className="confirm-head">
        <h2 id={titleId}>{t('trade.confirm.title')}</h2>
        <BookBadge />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolled figures must be reachable by keyboard */}
      <section className="confirm-scroll" aria-label={t('trade.figures')} tabIndex={0}>
        <p className="muted small">{t('trade.confirm.intro')}</p>
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
          <div>
            <dt>{t('trade.autoClose')}</dt>
            <dd>{autoClose}</dd>
          </div>
        </dl>
        <p className="small" data-testid="confirm-quote-time" data-value={figures.quoteTime}>
          {t('trade.quoteTime')}: <time>{f.quoteTime(figures.quoteTime)}</time>
        </p>
        {renewal.state === 'failed' ? null : previous !== null ? (
          // After a first renewal the notice stays put while the next one loads (no flicker).
          <p className="notice" data-testid="requote" data-state={marks.size > 0 ? 'changed' : 'same'}>
            {renewedText}
          </p>
        ) : renewal.state === 'refreshing' ? (
          <p className="notice" data-testid="requote" data-state="refreshing">
            {t('trade.confirm.refreshing')}
          </p>
        ) : null}
        {renewal.state === 'failed' ? (
          <div id={`${titleId}-expired`} className="form-error" data-testid="requote" data-state="failed">
            <p>
              {renewal.message} {t('trade.confirm.refreshFailed')}
            </p>
            <button type="button" className="button ghost small" onClick={() => void renew(true)}>
              {t('action.retry')}
            </button>
          </div>
        ) : null}
        <dl className="figures confirm-figures" aria-busy={renewal.state === 'refreshing' || undefined}>
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
        {refused ? (
          <p id={`${titleId}-refused`} className="form-error" role="alert">
            {t(`trade.error.${stopMessage(stopsOfFigures(figures.unreasonable)) ?? 'both'}`)}
          </p>
        ) : null}
        <FormError message={failure} />
        <p className="visually-hidden" aria-live="polite" data-testid="requote-announcer">
          {typeof announcement === 'string'
            ? announcement
            : announcement.quoteTime === figures.quoteTime
              ? renewedText
              : ''}
        </p>
      </section>
      <DialogButtons
        className="confirm-actions row end"
        dialog={dialog}
        cancel={t('trade.confirm.cancel')}
        confirm={confirming ? t('trade.confirm.opening') : t('trade.confirm.confirm')}
        disabled={confirming || expired || refused}
        why={refused ? `${titleId}-refused` : expired ? `${titleId}-expired` : undefined}
        onConfirm={() => {
          setFailure('');
          sending.current = true;
          open.mutate(snapshot);
        }}
      />
    </dialog>
  );
}

/** A figure as the reader sees it (a profit row shows its amount with a sign). */
function shownText(
  row: { value: ReactNode; raw: string },
  usdt: (amount: string, sign?: boolean) => string,
): string {
  return typeof row.value === 'string' ? row.value : usdt(row.raw, true);
}

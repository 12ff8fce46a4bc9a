import { Code, type TicketBody, type TicketFigures, type TradingTerms } from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiFailure, callApi } from '../app/api.ts';
import { DirectionLabel, FigureList, useFigureRows, useTradeFormat } from './parts.tsx';
import { autoCloseKey, stopIssues, stopMessage, stopsOfFigures } from './ticket.ts';

/** What the confirm step shows and sends: one ticket and the figures of one quote. */
export type Snapshot = { body: TicketBody; figures: TicketFigures };

/**
 * The "order confirm" screen: a modal dialog (the browser traps focus in it and Escape closes it)
 * that repeats every figure of the quote the user saw, and opens the position at exactly that
 * quote (`quoteTime`). When the server says the price changed, the dialog shows the new quote and
 * asks again; nothing opens until the user confirms figures that are still valid.
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
  const { t } = useTranslation();
  const f = useTradeFormat();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [requoted, setRequoted] = useState(false);
  const [failure, setFailure] = useState('');
  const { body, figures } = snapshot;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const open = useMutation({
    mutationFn: (s: Snapshot) =>
      callApi('buyOptions', { body: { ...s.body, quoteTime: s.figures.quoteTime, requestId } }),
    onSuccess: (order) => {
      void queryClient.invalidateQueries({ queryKey: ['trade'] });
      void queryClient.invalidateQueries({ queryKey: ['ledger'] });
      dialog.current?.close();
      navigate(`/profile/orders/${order.id}`);
    },
    onError: async (error, sent) => {
      if (error instanceof ApiFailure && error.code === Code.PRICE_CHANGED) {
        // Requote: the figures of the current tick replace the old ones, and the user confirms again.
        try {
          const next = await callApi('previewOptions', { body: sent.body });
          setFailure('');
          setRequoted(true);
          onReplace({ body: sent.body, figures: next });
        } catch (refresh) {
          setFailure(refresh instanceof ApiFailure ? refresh.message : t('state.error'));
        }
        return;
      }
      const stops =
        error instanceof ApiFailure && error.code === Code.INVALID_INPUT ? stopIssues(error.data) : null;
      const key = stopMessage(stops);
      setRequoted(false);
      setFailure(
        key ? t(`trade.error.${key}`) : error instanceof ApiFailure ? error.message : t('state.error'),
      );
    },
  });

  const rows = useFigureRows(figures, body.direction);
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
      <div className="modal-body">
        <h2 id={titleId}>{t('trade.confirm.title')}</h2>
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
        {requoted ? (
          <p key={figures.quoteTime} className="notice" role="alert" data-testid="requote">
            {t('trade.confirm.priceChanged')}
          </p>
        ) : null}
        <FigureList rows={rows} className="confirm-figures" />
        {refused ? (
          <p className="form-error" role="alert">
            {t(`trade.error.${stopMessage(stopsOfFigures(figures.unreasonable)) ?? 'both'}`)}
          </p>
        ) : null}
        {failure ? (
          <p className="form-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="row end">
          <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
            {t('trade.confirm.cancel')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={open.isPending || refused}
            onClick={() => {
              setFailure('');
              open.mutate(snapshot);
            }}
          >
            {open.isPending ? t('trade.confirm.opening') : t('trade.confirm.confirm')}
          </button>
        </div>
      </div>
    </dialog>
  );
}

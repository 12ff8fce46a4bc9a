import { Code, formatMinor, type Position } from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type RefObject, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { DirectionLabel, Profit, StopField, Term, useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import { TrailingField } from './TicketFields.tsx';
import { parsePrice, readTrailing, stopIssues, stopMessage, trailingIssue } from './ticket.ts';

/** Price decimals of a position, read from its open price (the server writes it at the instrument's). */
function decimalsOf(order: Position): number {
  return order.openPrice.split('.')[1]?.length ?? 0;
}

function useAfterChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: tradeQueries.all });
    void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
  };
}

/** Close at the market, after a confirmation that states the price and profit of now. */
export function ClosePosition({ order, onDone }: { order: Position; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [failure, setFailure] = useState('');
  const afterChange = useAfterChange();
  const close = useMutation({
    mutationFn: () => callApi('closeOptions', { body: { id: order.id } }),
    onSuccess: (closed) => {
      afterChange();
      dialog.current?.close();
      const message = t('trade.closedMessage', {
        code: closed.code,
        price: closed.closePrice ? f.price(closed.closePrice) : '—',
        profit: f.usdt(closed.profit, true),
      });
      onDone(message);
      announce(message);
    },
    onError: (error) => setFailure(error instanceof ApiFailure ? error.message : t('state.error')),
  });
  return (
    <>
      <button
        type="button"
        className="button ghost small"
        onClick={() => {
          setFailure('');
          dialog.current?.showModal();
        }}
      >
        {t('trade.close')}
        <span className="visually-hidden"> {order.orderNo}</span>
      </button>
      <Modal dialogRef={dialog} className="modal" aria-labelledby={titleId} data-testid="close-dialog">
        <div className="modal-body">
          <h2 id={titleId}>{t('trade.closeTitle', { code: order.code })}</h2>
          <p>{t('trade.closeConfirm')}</p>
          <dl className="figures compact">
            <Term label={t('trade.orderNo')}>{order.orderNo}</Term>
            <Term label={t('trade.direction')}>
              <DirectionLabel direction={order.direction} />
            </Term>
            <Term label={t('trade.lots')}>{f.lots(order.lots)}</Term>
            <Term label={t('trade.markPrice')}>{order.markPrice ? f.price(order.markPrice) : '—'}</Term>
            <Term label={t('trade.liveProfit')}>
              <Profit value={order.profit} />
            </Term>
          </dl>
          <FormError message={failure} />
          <DialogButtons
            dialog={dialog}
            cancel={t('trade.confirm.cancel')}
            confirm={t('trade.closeNow')}
            disabled={close.isPending || order.status !== 'open'}
            onConfirm={() => close.mutate()}
          />
        </div>
      </Modal>
    </>
  );
}

type StopErrors = {
  stopLoss?: string;
  takeProfit?: string;
  trailingDistance?: string;
  both?: string;
  form?: string;
};
type StopsBody = { stopLoss: string; takeProfit: string; trailingDistance: string | null };

/**
 * The stops typed, read as prices of the position's decimals: the errors of those that are not,
 * else the stops to send.
 */
function readStops(
  t: TFunction,
  typed: { stopLoss: string; takeProfit: string; trailingDistance: string },
  decimals: number,
): { errors: StopErrors; stops: StopsBody | null } {
  const sl = typed.stopLoss.trim() === '' ? null : parsePrice(typed.stopLoss, decimals);
  const tp = typed.takeProfit.trim() === '' ? null : parsePrice(typed.takeProfit, decimals);
  const errors: StopErrors = {};
  if (typed.stopLoss.trim() === '') errors.stopLoss = t('trade.error.enterStopLoss');
  else if (sl === null) errors.stopLoss = t('trade.error.priceFormat', { count: decimals });
  if (typed.takeProfit.trim() === '') errors.takeProfit = t('trade.error.enterTakeProfit');
  else if (tp === null) errors.takeProfit = t('trade.error.priceFormat', { count: decimals });
  // The trailing stop: empty removes it.
  const trailing = readTrailing(typed.trailingDistance, decimals);
  if (trailing === null) errors.trailingDistance = t('trade.error.priceFormat', { count: decimals });
  if (sl === null || tp === null || trailing === null) return { errors, stops: null };
  return {
    errors,
    stops: {
      stopLoss: formatMinor(sl, decimals),
      takeProfit: formatMinor(tp, decimals),
      trailingDistance: trailing === '' ? null : trailing,
    },
  };
}

/** Saves a position's stops; the server's refusal is worded on the stop it is about (or both). */
function useSaveStops(
  order: Position,
  dialog: RefObject<HTMLDialogElement | null>,
  onDone: (message: string) => void,
) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<StopErrors>({});
  const afterChange = useAfterChange();
  const update = useMutation({
    mutationFn: (body: { id: number } & StopsBody) => callApi('updateOptions', { body }),
    onSuccess: () => {
      afterChange();
      dialog.current?.close();
      const message = t('trade.stopsSaved', { code: order.code });
      onDone(message);
      announce(message);
    },
    onError: (error) => {
      const key =
        error instanceof ApiFailure && error.code === Code.INVALID_INPUT
          ? stopMessage(stopIssues(error.data))
          : null;
      const trailing =
        error instanceof ApiFailure && error.code === Code.INVALID_INPUT && trailingIssue(error.data);
      if (key === 'both') setErrors({ both: t('trade.error.both') });
      else if (key) setErrors({ [key]: t(`trade.error.${key}`) });
      else if (trailing) setErrors({ trailingDistance: t('trade.error.trailingDistance') });
      else setErrors({ form: error instanceof ApiFailure ? error.message : t('state.error') });
    },
  });
  return { errors, setErrors, update };
}

/** The trailing stop's distance in the stops dialog (empty removes it), and the level it has reached. */
function TrailingEditor({
  order,
  typed: [value, onChange],
  error,
}: {
  order: Position;
  typed: [string, (value: string) => void];
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <>
      <TrailingField
        direction={order.direction}
        placeholder=""
        value={value}
        error={error}
        onChange={onChange}
      />
      {order.trailingLevel ? (
        <p className="field-hint" data-testid="trailing-level-now">
          {t('trade.trailingNote', { level: f.price(order.trailingLevel) })}
        </p>
      ) : null}
    </>
  );
}

/**
 * Change the stop loss, take profit and trailing stop of an open position (an empty trailing
 * distance removes it); the server judges them at the current price.
 */
export function EditStops({ order, onDone }: { order: Position; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [stopLoss, setStopLoss] = useState(order.stopLoss);
  const [takeProfit, setTakeProfit] = useState(order.takeProfit);
  const [trailing, setTrailing] = useState(order.trailingDistance ?? '');
  const { errors, setErrors, update } = useSaveStops(order, dialog, onDone);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const read = readStops(t, { stopLoss, takeProfit, trailingDistance: trailing }, decimalsOf(order));
    setErrors(read.errors);
    if (read.stops) update.mutate({ id: order.id, ...read.stops });
  };
  return (
    <>
      <button
        type="button"
        className="button ghost small"
        onClick={() => {
          setStopLoss(order.stopLoss);
          setTakeProfit(order.takeProfit);
          setTrailing(order.trailingDistance ?? '');
          setErrors({});
          dialog.current?.showModal();
        }}
      >
        {t('trade.editStops')}
        <span className="visually-hidden"> {order.orderNo}</span>
      </button>
      <Modal dialogRef={dialog} className="modal" aria-labelledby={titleId} data-testid="edit-dialog">
        <form className="modal-body pass-form" noValidate onSubmit={submit}>
          <h2 id={titleId}>{t('trade.editTitle', { code: order.code })}</h2>
          <StopField
            name="stopLoss"
            direction={order.direction}
            value={stopLoss}
            error={errors.stopLoss}
            joint={Boolean(errors.both)}
            onValue={setStopLoss}
          />
          <StopField
            name="takeProfit"
            direction={order.direction}
            value={takeProfit}
            error={errors.takeProfit}
            joint={Boolean(errors.both)}
            onValue={setTakeProfit}
          />
          <TrailingEditor order={order} typed={[trailing, setTrailing]} error={errors.trailingDistance} />
          {errors.both || errors.form ? (
            <p className="form-error" role="alert">
              {errors.both ?? errors.form}
            </p>
          ) : null}
          <DialogButtons
            dialog={dialog}
            cancel={t('trade.confirm.cancel')}
            confirm={t('trade.save')}
            disabled={update.isPending}
          />
        </form>
      </Modal>
    </>
  );
}

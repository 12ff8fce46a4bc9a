import { Code, formatMinor, type Position } from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { DirectionLabel, Profit, StopField, Term, useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import { parsePrice, stopIssues, stopMessage } from './ticket.ts';

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

/** Change the stop loss and take profit of an open position; the server judges them at the current price. */
export function EditStops({ order, onDone }: { order: Position; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [stopLoss, setStopLoss] = useState(order.stopLoss);
  const [takeProfit, setTakeProfit] = useState(order.takeProfit);
  const [errors, setErrors] = useState<{
    stopLoss?: string;
    takeProfit?: string;
    both?: string;
    form?: string;
  }>({});
  const afterChange = useAfterChange();
  const decimals = decimalsOf(order);
  const update = useMutation({
    mutationFn: (body: { id: number; stopLoss: string; takeProfit: string }) =>
      callApi('updateOptions', { body }),
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
      if (key === 'both') setErrors({ both: t('trade.error.both') });
      else if (key) setErrors({ [key]: t(`trade.error.${key}`) });
      else setErrors({ form: error instanceof ApiFailure ? error.message : t('state.error') });
    },
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const sl = stopLoss.trim() === '' ? null : parsePrice(stopLoss, decimals);
    const tp = takeProfit.trim() === '' ? null : parsePrice(takeProfit, decimals);
    const next: typeof errors = {};
    if (stopLoss.trim() === '') next.stopLoss = t('trade.error.enterStopLoss');
    else if (sl === null) next.stopLoss = t('trade.error.priceFormat', { count: decimals });
    if (takeProfit.trim() === '') next.takeProfit = t('trade.error.enterTakeProfit');
    else if (tp === null) next.takeProfit = t('trade.error.priceFormat', { count: decimals });
    setErrors(next);
    if (sl === null || tp === null) return;
    update.mutate({
      id: order.id,
      stopLoss: formatMinor(sl, decimals),
      takeProfit: formatMinor(tp, decimals),
    });
  };
  return (
    <>
      <button
        type="button"
        className="button ghost small"
        onClick={() => {
          setStopLoss(order.stopLoss);
          setTakeProfit(order.takeProfit);
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

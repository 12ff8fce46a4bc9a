import type {
  Direction,
  PendingFigures,
  PendingOrderType,
  PendingTicketBody,
  TicketBody,
} from '@swx/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { newRequestId } from '../../app/requestId.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, Field, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Loading } from '../../ui/PageState.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { DirectionLabel, Term, useTradeFormat } from './parts.tsx';
import { tradeQueries } from './queries.ts';
import { DirectionChoice } from './TicketFields.tsx';
import { parsePrice } from './ticket.ts';

/** The ticket's order types: at the market now, or pending at a level (issue 38). */
export type OrderType = 'market' | PendingOrderType;
const ORDER_TYPES: readonly OrderType[] = ['market', 'limit', 'stop'];

/** Market, limit or stop: pressed buttons in a group, as the direction is chosen. */
export function OrderTypeChoice({
  value,
  onChange,
}: {
  value: OrderType;
  onChange: (type: OrderType) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="product-choice order-type-choice">
      <legend>{t('trade.pending.orderType')}</legend>
      {ORDER_TYPES.map((type) => (
        <button
          key={type}
          type="button"
          className="button ghost small"
          aria-pressed={value === type}
          data-order-type={type}
          onClick={() => onChange(type)}
        >
          {t(`trade.pending.type.${type}`)}
        </button>
      ))}
    </fieldset>
  );
}

/** What a pending ticket adds: its level and how long it stands (till cancelled, or till a date). */
export type PendingInputs = { level: string; expiry: 'gtc' | 'date'; until: string };

/** The level (with what it means for this side and type) and the expiry of a pending order. */
export function PendingFields({
  type,
  direction,
  decimals,
  placeholder,
  inputs,
  error,
  onChange,
}: {
  type: PendingOrderType;
  direction: Direction;
  decimals: number;
  placeholder: string;
  inputs: PendingInputs;
  error: string | undefined;
  onChange: (inputs: PendingInputs) => void;
}) {
  const { t } = useTranslation();
  const expiryId = useId();
  const side = direction === 'long' ? 'buy' : 'sell';
  return (
    <>
      <Field
        label={t('trade.pending.level')}
        name="level"
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        hint={t(`trade.pending.levelHint.${side}.${type}`)}
        error={
          error ??
          (inputs.level !== '' && parsePrice(inputs.level, decimals) === null
            ? t('trade.error.priceFormat', { count: decimals })
            : undefined)
        }
        value={inputs.level}
        onChange={(event) => onChange({ ...inputs, level: event.target.value })}
      />
      <div className="field">
        <label htmlFor={expiryId}>{t('trade.pending.expiry')}</label>
        <select
          className="control"
          id={expiryId}
          value={inputs.expiry}
          onChange={(event) => onChange({ ...inputs, expiry: event.target.value as 'gtc' | 'date' })}
        >
          <option value="gtc">{t('trade.pending.gtc')}</option>
          <option value="date">{t('trade.pending.untilDate')}</option>
        </select>
      </div>
      {inputs.expiry === 'date' ? (
        <Field
          label={t('trade.pending.until')}
          name="until"
          type="datetime-local"
          value={inputs.until}
          onChange={(event) => onChange({ ...inputs, until: event.target.value })}
        />
      ) : null}
    </>
  );
}

/** The pending body of a valid market ticket and the typed level and expiry; null while they are not valid. */
export function pendingBody(
  body: TicketBody | null,
  type: PendingOrderType,
  inputs: PendingInputs,
  decimals: number,
): PendingTicketBody | null {
  if (!body || parsePrice(inputs.level, decimals) === null) return null;
  const expiresAt = expiresAtOf(inputs);
  if (expiresAt === undefined) return null;
  const { trailingDistance: _none, ...ticket } = body;
  return { ...ticket, type, level: inputs.level.trim(), expiresAt };
}

/** When a ticket's order lapses: null until cancelled, the typed date as an instant, undefined while no date is typed. */
export function expiresAtOf(inputs: Pick<PendingInputs, 'expiry' | 'until'>): string | null | undefined {
  if (inputs.expiry !== 'date') return null;
  const until = Date.parse(inputs.until);
  return Number.isFinite(until) ? new Date(until).toISOString() : undefined;
}

/** The ticket's order type, and a pending order's level and expiry (and the order being confirmed). */
export function usePendingTicket() {
  const [type, setType] = useState<OrderType>('market');
  const [inputs, setInputs] = useState<PendingInputs>({ level: '', expiry: 'gtc', until: '' });
  const [attempted, setAttempted] = useState(false);
  const [confirming, setConfirming] = useState<PendingTicketBody | null>(null);
  const bodyOf = (body: TicketBody | null, decimals: number) =>
    type === 'market' ? null : pendingBody(body, type, inputs, decimals);
  return {
    type,
    setType,
    inputs,
    setInputs,
    attempted,
    confirming,
    close: () => setConfirming(null),
    bodyOf,
    /** Review: the confirm step of what is typed, once it is a whole pending ticket. */
    review: (body: TicketBody | null, decimals: number) => {
      setAttempted(true);
      const ticket = bodyOf(body, decimals);
      if (ticket) setConfirming(ticket);
    },
  };
}
type PendingTicket = ReturnType<typeof usePendingTicket>;

/** The head of the ticket: the order type, the direction, and a pending order's level and expiry. */
export function TicketKind({
  input,
  decimals,
  placeholder,
}: {
  input: { pending: PendingTicket; direction: Direction; chooseDirection: (d: Direction) => void };
  decimals: number;
  placeholder: string;
}) {
  const { t } = useTranslation();
  const { pending } = input;
  const missing = pending.attempted && pending.inputs.level.trim() === '';
  return (
    <>
      <OrderTypeChoice value={pending.type} onChange={pending.setType} />
      <DirectionChoice value={input.direction} onChange={input.chooseDirection} />
      {pending.type !== 'market' ? (
        <PendingFields
          type={pending.type}
          direction={input.direction}
          decimals={decimals}
          placeholder={placeholder}
          inputs={pending.inputs}
          error={missing ? t('trade.pending.enterLevel') : undefined}
          onChange={pending.setInputs}
        />
      ) : null}
    </>
  );
}

/** The pending ticket's panel: Review asks for the quote, and the confirm step states what it holds. */
export function PendingPanel({
  formId,
  pending,
  body,
  decimals,
}: {
  formId: string;
  pending: PendingTicket;
  body: TicketBody | null;
  decimals: number;
}) {
  const { t } = useTranslation();
  const ready = pending.bodyOf(body, decimals) !== null;
  return (
    <section className="ticket-figures card-inset" aria-labelledby={`${formId}-pending`}>
      <h3 id={`${formId}-pending`}>{t('trade.pending.title')}</h3>
      <p className="muted" id={`${formId}-pending-note`}>
        {t('trade.pending.note')}
      </p>
      <button
        type="submit"
        form={formId}
        className="button primary block large"
        aria-disabled={!ready || undefined}
        aria-describedby={`${formId}-pending-note`}
        data-testid="pending-review"
      >
        {t('trade.review')}
      </button>
      {pending.confirming ? <PendingConfirm body={pending.confirming} onClose={pending.close} /> : null}
    </section>
  );
}

/** The quote of a pending ticket (asked for once), and the placing of exactly that quote. */
function usePendingCommit(body: PendingTicketBody) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const [requestId] = useState(newRequestId);
  const [placedId, setPlacedId] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const preview = useMutation({ mutationFn: () => callApi('previewPendingOrder', { body }) });
  const place = useMutation({
    mutationFn: (figures: PendingFigures) =>
      callApi('placePendingOrder', { body: { ...body, quoteId: figures.quoteId, requestId } }),
    onSuccess: (order) => {
      void queryClient.invalidateQueries({ queryKey: tradeQueries.all });
      void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
      setPlacedId(order.id);
      announce(t('trade.pending.placed', { order: order.orderNo, held: f.usdt(order.held) }));
    },
  });
  const figures = preview.data;
  // Stops that would be refused at the level: said, and the order cannot be placed.
  const unreasonable = figures?.unreasonable ?? [];
  const stopsWrong =
    unreasonable.length === 2
      ? t('trade.error.both')
      : unreasonable[0]
        ? t(`trade.error.${unreasonable[0]}`)
        : '';
  const failure = preview.error ?? place.error;
  return {
    preview,
    place,
    placedId,
    figures,
    stopsWrong,
    message: failure ? (failure instanceof ApiFailure ? failure.message : t('state.error')) : stopsWrong,
  };
}

/** What the confirm step states: the order, its level, and what it holds until it ends. */
function PendingFigureList({ body, figures }: { body: PendingTicketBody; figures: PendingFigures }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <dl className="figures compact">
      <Term label={t('trade.pending.typeLabel')}>
        <DirectionLabel direction={body.direction} /> · {t(`trade.pending.type.${body.type}`)}
      </Term>
      <Term label={t('trade.pending.level')}>{f.price(figures.level)}</Term>
      <Term label={t('trade.lots')}>{f.lots(body.lots)}</Term>
      <Term label={t('trade.margin')}>{f.usdt(figures.margin)}</Term>
      <Term label={t('trade.fee')}>{f.usdt(figures.fee)}</Term>
      <Term label={t('trade.pending.held')}>
        <strong data-testid="pending-held">{f.usdt(figures.held)}</strong>
      </Term>
      <Term label={t('trade.pending.expiry')}>
        {body.expiresAt ? f.time(body.expiresAt) : t('trade.pending.gtc')}
      </Term>
    </dl>
  );
}

/**
 * Quote, then commit: the figures of the pending order (what it holds from the available balance
 * until it fills, is cancelled or expires), and Confirm places exactly that quote.
 */
export function PendingConfirm({ body, onClose }: { body: PendingTicketBody; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { preview, place, placedId, figures, stopsWrong, message } = usePendingCommit(body);
  const { mutate } = preview;
  useEffect(() => {
    dialog.current?.showModal();
    mutate();
  }, [mutate]);
  return (
    <Modal
      dialogRef={dialog}
      className="modal"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="pending-confirm"
    >
      <div className="modal-body">
        <h2 id={titleId}>{t('trade.pending.confirmTitle')}</h2>
        {placedId !== null ? (
          <p role="status" data-testid="pending-placed">
            {t('trade.pending.placedShort')}{' '}
            <Link to="/profile/orders?tab=pending">{t('trade.pending.tab')}</Link>
          </p>
        ) : figures ? (
          <>
            <p>{t('trade.pending.confirmIntro')}</p>
            <PendingFigureList body={body} figures={figures} />
          </>
        ) : preview.isPending ? (
          <Loading />
        ) : null}
        <FormError message={message} />
        {placedId === null ? (
          <DialogButtons
            dialog={dialog}
            cancel={t('trade.confirm.cancel')}
            confirm={t('trade.pending.place')}
            disabled={!figures || stopsWrong !== '' || place.isPending}
            onConfirm={() => figures && place.mutate(figures)}
          />
        ) : (
          <div className="row end">
            <button type="button" className="button primary" onClick={() => dialog.current?.close()}>
              {t('trade.pending.done')}
            </button>
          </div>
        )}
      </div>
    </Modal>
  );
}

import type { PendingFigures, PendingOrder, PendingTicketBody } from '@swx/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { announce } from '../../ui/announce.ts';
import { DialogButtons, Field, FormError } from '../../ui/Field.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ledgerQueries } from '../ledger/queries.ts';
import { expiresAtOf, PendingFields, type PendingInputs } from './PendingTicket.tsx';
import { DirectionLabel, Term, useTradeFormat } from './parts.tsx';
import { OPEN_REFRESH_MS, tradeQueries } from './queries.ts';

/** After a change: the orders, positions and balances are read again. */
function useAfterChange() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: tradeQueries.all });
    void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
  };
}

const failureText = (error: unknown, fallback: string) =>
  error instanceof ApiFailure ? error.message : fallback;

/** Cancel an open order, after a confirmation that states what it releases. */
function CancelPending({ order, onDone }: { order: PendingOrder; onDone: (m: string) => void }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const afterChange = useAfterChange();
  const cancel = useMutation({
    mutationFn: () => callApi('cancelPendingOrder', { body: { id: order.id } }),
    onSuccess: () => {
      afterChange();
      dialog.current?.close();
      const message = t('trade.pending.cancelled', { order: order.orderNo, held: f.usdt(order.held) });
      onDone(message);
      announce(message);
    },
  });
  return (
    <>
      <button type="button" className="button ghost small" onClick={() => dialog.current?.showModal()}>
        {t('trade.pending.cancel')}
        <span className="visually-hidden"> {order.orderNo}</span>
      </button>
      <Modal
        dialogRef={dialog}
        className="modal"
        aria-labelledby={titleId}
        data-testid="cancel-pending-dialog"
      >
        <div className="modal-body">
          <h2 id={titleId}>{t('trade.pending.cancelTitle', { order: order.orderNo })}</h2>
          <p>{t('trade.pending.cancelConfirm', { held: f.usdt(order.held) })}</p>
          <FormError message={cancel.error ? failureText(cancel.error, t('state.error')) : ''} />
          <DialogButtons
            dialog={dialog}
            cancel={t('trade.pending.keep')}
            confirm={t('trade.pending.cancelNow')}
            disabled={cancel.isPending}
            onConfirm={() => cancel.mutate()}
          />
        </div>
      </Modal>
    </>
  );
}

/** What the change dialog edits: the level, the stops and how long the order stands. */
type EditInputs = PendingInputs & { stopLoss: string; takeProfit: string };

/** An ISO instant as a `datetime-local` value in the browser's time zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The open order as a ticket with what is typed (a new quote prices what it will hold); null: a date is missing. */
function editedTicket(order: PendingOrder, typed: EditInputs): PendingTicketBody | null {
  const { marketId, type, direction, lots, leverage, autoCloseAfter } = order;
  const expiresAt = expiresAtOf(typed);
  if (expiresAt === undefined) return null;
  const { level, stopLoss, takeProfit } = typed;
  return {
    marketId,
    type,
    direction,
    lots,
    leverage,
    autoCloseAfter,
    expiresAt,
    level,
    stopLoss,
    takeProfit,
  };
}

/**
 * The change of an open order: Review asks for a quote of the typed ticket (what it will hold),
 * shown before anything is saved; Save commits that quote. Typing again drops the quote.
 */
function useEditPending(order: PendingOrder, onSaved: (edited: PendingOrder) => void) {
  const [typed, setTyped] = useState<EditInputs>({
    level: order.level,
    stopLoss: order.stopLoss,
    takeProfit: order.takeProfit,
    expiry: order.expiresAt ? 'date' : 'gtc',
    until: localInput(order.expiresAt),
  });
  const [attempted, setAttempted] = useState(false);
  const ticket = editedTicket(order, typed);
  const review = useMutation({
    mutationFn: (body: PendingTicketBody) => callApi('previewPendingOrder', { body }),
  });
  const save = useMutation({
    mutationFn: ({ body, quoteId }: { body: PendingTicketBody; quoteId: string }) => {
      const { level, stopLoss, takeProfit, expiresAt } = body;
      return callApi('editPendingOrder', {
        body: { id: order.id, level, stopLoss, takeProfit, expiresAt, quoteId },
      });
    },
    onSuccess: onSaved,
  });
  const { reset } = review;
  const change = (next: EditInputs) => {
    setTyped(next);
    reset();
  };
  const figures = review.data;
  return {
    typed,
    change,
    figures,
    missingDate: attempted && ticket === null,
    busy: review.isPending || save.isPending,
    error: review.error ?? save.error,
    submit: () => {
      setAttempted(true);
      if (!ticket) return;
      if (figures) save.mutate({ body: ticket, quoteId: figures.quoteId });
      else review.mutate(ticket);
    },
  };
}

/** Before saving: what the order holds now and what it will hold after the change (the quote's figures). */
function HeldPreview({ order, figures }: { order: PendingOrder; figures: PendingFigures }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <div role="status" data-testid="pending-edit-preview">
      <dl className="figures compact">
        <Term label={t('trade.pending.held')}>{f.usdt(order.held)}</Term>
        <Term label={t('trade.pending.heldAfter')}>
          <strong data-testid="pending-edit-held">{f.usdt(figures.held)}</strong>
        </Term>
      </dl>
    </div>
  );
}

/** Change the level, stops and expiry of an open order: Review states what it will hold, then Save commits that quote. */
function EditPending({ order, onDone }: { order: PendingOrder; onDone: (m: string) => void }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const afterChange = useAfterChange();
  const edit = useEditPending(order, (edited) => {
    afterChange();
    dialog.current?.close();
    const message = t('trade.pending.edited', { order: edited.orderNo, held: f.usdt(edited.held) });
    onDone(message);
    announce(message);
  });
  const { typed, figures } = edit;
  const decimals = order.level.split('.')[1]?.length ?? 0;
  // Stops the quote finds unreasonable at the level: said, and the change cannot be saved.
  const [wrong, second] = figures?.unreasonable ?? [];
  const stopsWrong = second ? t('trade.error.both') : wrong ? t(`trade.error.${wrong}`) : '';
  return (
    <>
      <button type="button" className="button ghost small" onClick={() => dialog.current?.showModal()}>
        {t('trade.pending.edit')}
        <span className="visually-hidden"> {order.orderNo}</span>
      </button>
      <Modal dialogRef={dialog} className="modal" aria-labelledby={titleId} data-testid="edit-pending-dialog">
        <form
          className="modal-body"
          onSubmit={(event) => {
            event.preventDefault();
            edit.submit();
          }}
        >
          <h2 id={titleId}>{t('trade.pending.editTitle', { order: order.orderNo })}</h2>
          <p className="muted">{t('trade.pending.editNote')}</p>
          <PendingFields
            type={order.type}
            direction={order.direction}
            decimals={decimals}
            placeholder={order.level}
            inputs={typed}
            error={undefined}
            onChange={(inputs) => edit.change({ ...typed, ...inputs })}
          />
          {edit.missingDate ? <FormError message={t('trade.pending.enterDate')} /> : null}
          {(['stopLoss', 'takeProfit'] as const).map((name) => (
            <Field
              key={name}
              label={t(`trade.${name}`)}
              name={name}
              inputMode="decimal"
              autoComplete="off"
              value={typed[name]}
              onChange={(event) => edit.change({ ...typed, [name]: event.target.value })}
            />
          ))}
          {figures ? <HeldPreview order={order} figures={figures} /> : null}
          <FormError message={edit.error ? failureText(edit.error, t('state.error')) : stopsWrong} />
          <DialogButtons
            dialog={dialog}
            cancel={t('trade.confirm.cancel')}
            confirm={figures ? t('trade.pending.save') : t('trade.pending.reviewChange')}
            disabled={edit.busy || stopsWrong !== ''}
          />
        </form>
      </Modal>
    </>
  );
}

/** What an ended order came to: filled (at what price, a gap said), cancelled, expired, rejected (why). */
function Outcome({ order }: { order: PendingOrder }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <span className="pending-outcome" data-state={order.state}>
      {t(`trade.pending.state.${order.state}`)}
      {order.fillPrice ? ` · ${f.price(order.fillPrice)}` : null}
      {order.state === 'filled' && order.gapped ? (
        <span className="field-hint"> {t('trade.pending.gapNote')}</span>
      ) : null}
      {order.reason ? <span className="field-hint"> {t(`trade.pending.reason.${order.reason}`)}</span> : null}
    </span>
  );
}

function PendingCard({ order, onDone }: { order: PendingOrder; onDone: (m: string) => void }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const open = order.state === 'open';
  return (
    <li className="card order-card" data-pending={order.id} data-state={order.state} data-code={order.code}>
      <div className="product-record-head order-card-head">
        <strong>{order.code}</strong> <DirectionLabel direction={order.direction} />{' '}
        <span>{t(`trade.pending.type.${order.type}`)}</span> <span className="muted">{order.orderNo}</span>
      </div>
      <dl className="figures compact">
        <Term label={t('trade.pending.level')}>{f.price(order.level)}</Term>
        <Term label={t('trade.lotsLeverage')}>
          {f.lots(order.lots)} · {f.leverage(order.leverage)}
        </Term>
        <Term label={t('trade.stopsShort')}>
          {f.price(order.stopLoss)} / {f.price(order.takeProfit)}
        </Term>
        {open ? (
          <>
            <Term label={t('trade.pending.held')}>{f.usdt(order.held)}</Term>
            <Term label={t('trade.pending.expiry')}>
              {order.expiresAt ? f.time(order.expiresAt) : t('trade.pending.gtc')}
            </Term>
          </>
        ) : (
          <>
            <Term label={t('trade.pending.outcome')}>
              <Outcome order={order} />
            </Term>
            <Term label={t('trade.pending.ended')}>{order.endedAt ? f.time(order.endedAt) : '—'}</Term>
          </>
        )}
      </dl>
      {open ? (
        <div className="row end">
          <EditPending order={order} onDone={onDone} />
          <CancelPending order={order} onDone={onDone} />
        </div>
      ) : null}
    </li>
  );
}

function PendingSection({
  userId,
  status,
  onDone,
}: {
  userId: number;
  status: 'open' | 'history';
  onDone: (m: string) => void;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const headingId = useId();
  const query = useQuery({
    ...tradeQueries.pending(userId, book, status, 1, language),
    refetchInterval: status === 'open' ? OPEN_REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby={headingId} className="pending-section">
      <h2 id={headingId}>
        {status === 'open' ? t('trade.pending.openHeading') : t('trade.pending.historyHeading')}
      </h2>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Failed message={query.error.message} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <Empty text={status === 'open' ? t('trade.pending.emptyOpen') : t('trade.pending.emptyHistory')} />
      ) : (
        <ul className="product-list order-cards" data-testid={`pending-${status}`}>
          {query.data.items.map((order) => (
            <PendingCard key={order.id} order={order} onDone={onDone} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The pending-orders tab: open orders (edit, cancel) and the history of ended ones. */
export function PendingOrders({ userId, onDone }: { userId: number; onDone: (m: string) => void }) {
  return (
    <>
      <PendingSection userId={userId} status="open" onDone={onDone} />
      <PendingSection userId={userId} status="history" onDone={onDone} />
    </>
  );
}

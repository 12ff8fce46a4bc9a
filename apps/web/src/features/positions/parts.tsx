import {
  type CloseReason,
  type Direction,
  LANGUAGE_TAGS,
  type Position,
  type TicketFigures,
} from '@swx/contract';
import type { TFunction } from 'i18next';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDecimal, formatNumber } from '../../app/i18n.ts';
import { formatAmount, formatMoney, formatPercent, signOf } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { Field } from '../../ui/Field.tsx';
import { price } from '../market/live.ts';
import '../../ui/product/product.css';
import './trading.css';

/** Formatters in the reader's language; every one takes the server's decimal strings as they are. */
export function useTradeFormat() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const locale = LANGUAGE_TAGS[language];
  return {
    language,
    usdt: (amount: string, sign = false) =>
      t('trade.usdt', { amount: formatMoney(language, amount, 'USDT', { sign }) }),
    price: (value: string) => price(value, locale),
    ratio: (value: string) => formatPercent(language, value),
    percent: (value: string) =>
      formatPercent(language, value, { alreadyPercent: true, minimumFractionDigits: 2 }),
    time: (iso: string) => formatDate(language, iso, { dateStyle: 'medium', timeStyle: 'medium' }),
    quoteTime: (epochSeconds: number) =>
      formatDate(language, new Date(epochSeconds * 1000), { dateStyle: 'medium', timeStyle: 'medium' }),
    lots: (value: string) => formatAmount(language, value, 2),
    leverage: (value: number) => t('trade.leverageValue', { value: formatNumber(language, value) }),
    /** A decimal string as it is (lots limits, steps) in the reader's number format. */
    decimal: (value: string) => formatDecimal(language, value),
  };
}

/** Buy long / sell short in words with an arrow, never colour alone. */
export function DirectionLabel({ direction }: { direction: Direction }) {
  const { t } = useTranslation();
  return (
    <span className={`direction ${direction}`} data-direction={direction}>
      <span aria-hidden="true">{direction === 'long' ? '▲ ' : '▼ '}</span>
      {direction === 'long' ? t('trade.long') : t('trade.short')}
    </span>
  );
}

/** A profit or loss: sign, colour, an arrow and the word, so it never rests on colour alone. */
export function Profit({ value }: { value: string }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const sign = signOf(value);
  const word = sign > 0 ? t('trade.profitWord') : sign < 0 ? t('trade.lossWord') : '';
  return (
    <span className={`profit ${sign > 0 ? 'up' : sign < 0 ? 'down' : ''}`} data-value={value}>
      <span className="nowrap">
        <span aria-hidden="true">{sign > 0 ? '▲ ' : sign < 0 ? '▼ ' : ''}</span>
        {word}
      </span>{' '}
      <span className="nowrap">{f.usdt(value, true)}</span>
    </span>
  );
}

/**
 * The stop-loss or the take-profit price of an order, with the hint for its side; `joint` marks
 * it invalid too when the two stops are refused together.
 */
export function StopField({
  name,
  direction,
  error,
  joint,
  onValue,
  ...input
}: {
  name: 'stopLoss' | 'takeProfit';
  direction: Direction;
  error: string | undefined;
  joint: boolean;
  onValue: (value: string) => void;
} & Pick<InputHTMLAttributes<HTMLInputElement>, 'value' | 'placeholder' | 'onBlur'>) {
  const { t } = useTranslation();
  const long = direction === 'long';
  const [label, hint] =
    name === 'stopLoss'
      ? [t('trade.stopLoss'), long ? t('trade.stopLossHintLong') : t('trade.stopLossHintShort')]
      : [t('trade.takeProfit'), long ? t('trade.takeProfitHintLong') : t('trade.takeProfitHintShort')];
  return (
    <Field
      label={label}
      name={name}
      inputMode="decimal"
      autoComplete="off"
      hint={hint}
      error={error}
      aria-invalid={error || joint ? true : undefined}
      onChange={(event) => onValue(event.target.value)}
      {...input}
    />
  );
}

/** An open position's trailing stop in a list: the level it has reached (nothing without one). */
export function TrailingNote({ order }: { order: Position }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  if (!order.trailingLevel) return null;
  return (
    <span className="trailing-note" data-figure="trailingLevel" data-value={order.trailingLevel}>
      {t('trade.trailingNote', { level: f.price(order.trailingLevel) })}
    </span>
  );
}

export function closeReasonText(t: (key: string) => string, reason: CloseReason | null): string {
  return reason ? t(`closeReason.${reason}`) : '—';
}

export type FigureRow = { key: string; label: string; value: React.ReactNode; raw: string };

/** The rows of a ticket's figures, in the order the ticket and the confirm step show them. */
export function useFigureRows(figures: TicketFigures, direction: Direction): FigureRow[] {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return [
    {
      key: 'price',
      label: direction === 'long' ? t('trade.priceLong') : t('trade.priceShort'),
      value: f.price(figures.price),
      raw: figures.price,
    },
    { key: 'bid', label: t('trade.bid'), value: f.price(figures.bid), raw: figures.bid },
    { key: 'ask', label: t('trade.ask'), value: f.price(figures.ask), raw: figures.ask },
    { key: 'spread', label: t('trade.spread'), value: f.price(figures.spread), raw: figures.spread },
    { key: 'notional', label: t('trade.notional'), value: f.usdt(figures.notional), raw: figures.notional },
    { key: 'margin', label: t('trade.margin'), value: f.usdt(figures.margin), raw: figures.margin },
    { key: 'fee', label: t('trade.fee'), value: f.usdt(figures.fee), raw: figures.fee },
    { key: 'cost', label: t('trade.cost'), value: f.usdt(figures.cost), raw: figures.cost },
    {
      key: 'profitAtTakeProfit',
      label: t('trade.profitAtTakeProfit'),
      value: <Profit value={figures.profitAtTakeProfit} />,
      raw: figures.profitAtTakeProfit,
    },
    {
      key: 'lossAtStopLoss',
      label: t('trade.lossAtStopLoss'),
      value: <Profit value={figures.lossAtStopLoss} />,
      raw: figures.lossAtStopLoss,
    },
    {
      key: 'liquidationPrice',
      label: t('trade.liquidationPrice'),
      value: f.price(figures.liquidationPrice),
      raw: figures.liquidationPrice,
    },
    ...(figures.trailingLevel
      ? [
          {
            key: 'trailingLevel',
            label: t('trade.trailingStart'),
            value: f.price(figures.trailingLevel),
            raw: figures.trailingLevel,
          },
        ]
      : []),
  ];
}

/** One term of a definition list: its label and what it shows. */
export function Term({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** A definition list of figures; `data-figure` and `data-value` carry the exact strings the server sent. */
export function FigureList({ rows, className }: { rows: FigureRow[]; className?: string }) {
  return (
    <dl className={`figures ${className ?? ''}`}>
      {rows.map((row) => (
        <div key={row.key} data-figure={row.key} data-value={row.raw}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

type TradeFormat = ReturnType<typeof useTradeFormat>;

/** What a position was opened with: its number, status, side, size, leverage, price and time. */
function openingRows(order: Position, t: TFunction, f: TradeFormat): FigureRow[] {
  return [
    { key: 'orderNo', label: t('trade.orderNo'), value: order.orderNo, raw: order.orderNo },
    {
      key: 'status',
      label: t('trade.status'),
      value: t(`trade.statusValue.${order.status}`),
      raw: order.status,
    },
    {
      key: 'direction',
      label: t('trade.direction'),
      value: <DirectionLabel direction={order.direction} />,
      raw: order.direction,
    },
    { key: 'lots', label: t('trade.lots'), value: f.lots(order.lots), raw: order.lots },
    {
      key: 'leverage',
      label: t('trade.leverage'),
      value: f.leverage(order.leverage),
      raw: String(order.leverage),
    },
    { key: 'openPrice', label: t('trade.openPrice'), value: f.price(order.openPrice), raw: order.openPrice },
    { key: 'openTime', label: t('trade.openTime'), value: f.time(order.openTime), raw: order.openTime },
  ];
}

/** Where an open position stands (mark price, margin level) or how a closed one ended; a dash until known. */
function stateRows(order: Position, t: TFunction, f: TradeFormat): FigureRow[] {
  const maybe = <V extends string>(
    key: string,
    label: string,
    raw: V | null,
    format: (value: V) => string,
  ): FigureRow => ({ key, label, value: raw ? format(raw) : '—', raw: raw ?? '' });
  return order.status === 'open'
    ? [
        maybe('markPrice', t('trade.markPrice'), order.markPrice, f.price),
        maybe('marginLevel', t('trade.marginLevel'), order.marginLevel, f.percent),
      ]
    : [
        maybe('closePrice', t('trade.closePrice'), order.closePrice, f.price),
        maybe('closeTime', t('trade.closeTime'), order.closeTime, f.time),
        maybe('closeReason', t('trade.closeReason'), order.closeReason, (reason) =>
          closeReasonText(t, reason),
        ),
      ];
}

/** A position's trailing stop, when it has one: its distance and the level it has reached. */
function trailingRows(order: Position, t: TFunction, f: TradeFormat): FigureRow[] {
  if (!order.trailingDistance || !order.trailingLevel) return [];
  return [
    {
      key: 'trailingDistance',
      label: t('trade.trailingDistance'),
      value: f.price(order.trailingDistance),
      raw: order.trailingDistance,
    },
    {
      key: 'trailingLevel',
      label: t('trade.trailingLevel'),
      value: f.price(order.trailingLevel),
      raw: order.trailingLevel,
    },
  ];
}

/** A position's money and risk: profit, what it holds and cost, its stops and what they give, its auto close. */
function moneyRows(order: Position, t: TFunction, f: TradeFormat): FigureRow[] {
  return [
    {
      key: 'profit',
      label: order.status === 'open' ? t('trade.liveProfit') : t('trade.realisedProfit'),
      value: <Profit value={order.profit} />,
      raw: order.profit,
    },
    { key: 'notional', label: t('trade.notional'), value: f.usdt(order.notional), raw: order.notional },
    { key: 'margin', label: t('trade.margin'), value: f.usdt(order.margin), raw: order.margin },
    { key: 'fee', label: t('trade.fee'), value: f.usdt(order.fee), raw: order.fee },
    { key: 'stopLoss', label: t('trade.stopLoss'), value: f.price(order.stopLoss), raw: order.stopLoss },
    {
      key: 'takeProfit',
      label: t('trade.takeProfit'),
      value: f.price(order.takeProfit),
      raw: order.takeProfit,
    },
    ...trailingRows(order, t, f),
    {
      key: 'expectedReturn',
      label: t('trade.expectedReturn'),
      value: <Profit value={order.expectedReturn} />,
      raw: order.expectedReturn,
    },
    {
      key: 'lossAtStopLoss',
      label: t('trade.lossAtStopLoss'),
      value: <Profit value={order.lossAtStopLoss} />,
      raw: order.lossAtStopLoss,
    },
    {
      key: 'liquidationPrice',
      label: t('trade.liquidationPrice'),
      value: f.price(order.liquidationPrice),
      raw: order.liquidationPrice,
    },
    {
      key: 'autoCloseAt',
      label: t('trade.autoCloseAt'),
      value: order.autoCloseAt ? f.time(order.autoCloseAt) : t('trade.autoCloseNone'),
      raw: order.autoCloseAt ?? '',
    },
  ];
}

/** Every field of an order (spec §3 Order plus ours), for the detail screen. */
export function useOrderRows(order: Position): FigureRow[] {
  const { t } = useTranslation();
  const f = useTradeFormat();
  const rows = [...openingRows(order, t, f), ...stateRows(order, t, f), ...moneyRows(order, t, f)];
  // What the house absorbed is part of a closed position's account, stated even when nothing.
  if (order.status === 'closed' || signOf(order.absorbed) !== 0) {
    rows.push({
      key: 'absorbed',
      label: t('trade.absorbed'),
      value: f.usdt(order.absorbed),
      raw: order.absorbed,
    });
  }
  return rows;
}

import { LANGUAGE_TAGS, type Position } from '@swx/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, use, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatNumber } from '../../app/i18n.ts';
import { signOf } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ClosePosition, EditStops } from './OrderActions.tsx';
import { PendingOrders } from './PendingOrders.tsx';
import { closeReasonText, DirectionLabel, Profit, Term, TrailingNote, useTradeFormat } from './parts.tsx';
import { OPEN_REFRESH_MS, ORDERS_PAGE_SIZE, tradeQueries } from './queries.ts';
import { tradeTexts } from './texts.ts';

type Tab = 'open' | 'pending' | 'closed';
const TABS: readonly Tab[] = ['open', 'pending', 'closed'];

function OrderLink({ order }: { order: Position }) {
  return (
    <Link to={`/profile/orders/${order.id}`} className="order-link">
      {order.orderNo}
    </Link>
  );
}

/** A keyboard-scrollable table of positions: the columns every tab shares, then the tab's own. */
function OrdersTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: string[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
    <section className="table-scroll card orders-scroll" aria-label={label} tabIndex={0}>
      <table className="data-table orders-table">
        <thead>
          <tr>
            {[
              t('trade.instrument'),
              t('trade.direction'),
              t('trade.lotsLeverage'),
              t('trade.openPrice'),
              ...columns,
            ].map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}

/** The cells every row of a positions table starts with. */
function LeadCells({ order }: { order: Position }) {
  const f = useTradeFormat();
  return (
    <>
      <th scope="row">
        <span className="order-code">{order.code}</span>
        <OrderLink order={order} />
      </th>
      <td>
        <DirectionLabel direction={order.direction} />
      </td>
      <td className="num">
        {f.lots(order.lots)} · {f.leverage(order.leverage)}
      </td>
      <td className="num">{f.price(order.openPrice)}</td>
    </>
  );
}

function OpenTable({ items, onDone }: { items: Position[]; onDone: (m: string) => void }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <OrdersTable
      label={t('trade.openTab')}
      columns={[
        t('trade.markPrice'),
        t('trade.liveProfit'),
        t('trade.marginLevel'),
        t('trade.stopsShort'),
        t('trade.actions'),
      ]}
    >
      {items.map((order) => (
        <tr key={order.id} data-order={order.id} data-code={order.code}>
          <LeadCells order={order} />
          <td className="num">{order.markPrice ? f.price(order.markPrice) : '—'}</td>
          <td className="num">
            <Profit value={order.profit} />
          </td>
          <td className="num">{order.marginLevel ? f.percent(order.marginLevel) : '—'}</td>
          <td className="num stops-cell">
            <span>{f.price(order.stopLoss)}</span>
            <span>{f.price(order.takeProfit)}</span>
            <TrailingNote order={order} />
          </td>
          <td>
            <div className="row">
              <EditStops order={order} onDone={onDone} />
              <ClosePosition order={order} onDone={onDone} />
            </div>
          </td>
        </tr>
      ))}
    </OrdersTable>
  );
}

function HistoryTable({ items }: { items: Position[] }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <OrdersTable
      label={t('trade.historyTab')}
      columns={[
        t('trade.closePrice'),
        t('trade.closeTime'),
        t('trade.realisedProfit'),
        t('trade.closeReason'),
      ]}
    >
      {items.map((order) => (
        <tr key={order.id} data-order={order.id} data-code={order.code} data-reason={order.closeReason}>
          <LeadCells order={order} />
          <td className="num">{order.closePrice ? f.price(order.closePrice) : '—'}</td>
          <td>{order.closeTime ? <time dateTime={order.closeTime}>{f.time(order.closeTime)}</time> : '—'}</td>
          <td className="num">
            <Profit value={order.profit} />
            {signOf(order.absorbed) !== 0 ? (
              <span className="absorbed">{t('trade.absorbedShort', { amount: f.usdt(order.absorbed) })}</span>
            ) : null}
          </td>
          <td className="reason">{closeReasonText(t, order.closeReason)}</td>
        </tr>
      ))}
    </OrdersTable>
  );
}

/** On a phone a wide table is hard to use: each position is a card with the same figures. */
function OrderCards({ items, tab, onDone }: { items: Position[]; tab: Tab; onDone: (m: string) => void }) {
  const { t } = useTranslation();
  const f = useTradeFormat();
  return (
    <ul className="product-list order-cards">
      {items.map((order) => (
        <li
          key={order.id}
          className="card order-card"
          data-order={order.id}
          data-code={order.code}
          data-reason={order.closeReason ?? undefined}
        >
          <div className="product-record-head order-card-head">
            <strong>{order.code}</strong> <DirectionLabel direction={order.direction} />
            <OrderLink order={order} />
          </div>
          <dl className="figures compact">
            <Term label={t('trade.lotsLeverage')}>
              {f.lots(order.lots)} · {f.leverage(order.leverage)}
            </Term>
            <Term label={t('trade.openPrice')}>{f.price(order.openPrice)}</Term>
            {tab === 'open' ? (
              <>
                <Term label={t('trade.markPrice')}>{order.markPrice ? f.price(order.markPrice) : '—'}</Term>
                <Term label={t('trade.marginLevel')}>
                  {order.marginLevel ? f.percent(order.marginLevel) : '—'}
                </Term>
                <Term label={t('trade.stopsShort')}>
                  {f.price(order.stopLoss)} / {f.price(order.takeProfit)}
                  <TrailingNote order={order} />
                </Term>
                <Term label={t('trade.liveProfit')}>
                  <Profit value={order.profit} />
                </Term>
              </>
            ) : (
              <>
                <Term label={t('trade.closePrice')}>
                  {order.closePrice ? f.price(order.closePrice) : '—'}
                </Term>
                <Term label={t('trade.closeTime')}>{order.closeTime ? f.time(order.closeTime) : '—'}</Term>
                <Term label={t('trade.closeReason')} className="reason">
                  {closeReasonText(t, order.closeReason)}
                </Term>
                <Term label={t('trade.realisedProfit')}>
                  <Profit value={order.profit} />
                </Term>
                {signOf(order.absorbed) !== 0 ? (
                  <Term label={t('trade.absorbed')}>{f.usdt(order.absorbed)}</Term>
                ) : null}
              </>
            )}
          </dl>
          {tab === 'open' ? (
            <div className="row end">
              <EditStops order={order} onDone={onDone} />
              <ClosePosition order={order} onDone={onDone} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function OrderList({
  userId,
  tab,
  onDone,
}: {
  userId: number;
  tab: 'open' | 'closed';
  onDone: (m: string) => void;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const isDesktop = useClientState((s) => s.isDesktop);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const [page, setPage] = useState(1);
  const query = useQuery({
    ...tradeQueries.orders(userId, book, tab, page, language),
    refetchInterval: tab === 'open' ? OPEN_REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });
  const emptyPage = query.data !== undefined && query.data.items.length === 0 && page > 1;
  useEffect(() => {
    // The last position of a page closed: step back rather than show an empty page.
    if (emptyPage) setPage((p) => Math.max(1, p - 1));
  }, [emptyPage]);
  if (query.isPending || emptyPage) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  if (items.length === 0)
    return <Empty text={tab === 'open' ? t('trade.emptyOpen') : t('trade.emptyHistory')} />;
  return (
    <>
      {isDesktop ? (
        tab === 'open' ? (
          <OpenTable items={items} onDone={onDone} />
        ) : (
          <HistoryTable items={items} />
        )
      ) : (
        <OrderCards items={items} tab={tab} onDone={onDone} />
      )}
      {pages > 1 ? (
        <nav className="pager row" aria-label={t('trade.pages')}>
          <button
            type="button"
            className="button ghost small"
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
          >
            {t('trade.previous')}
          </button>
          <span aria-live="polite">
            {t('trade.page', { page: formatNumber(language, page), pages: formatNumber(language, pages) })}
          </span>
          <button
            type="button"
            className="button ghost small"
            disabled={page >= pages}
            onClick={() => setPage((p) => p + 1)}
          >
            {t('trade.next')}
          </button>
        </nav>
      ) : null}
    </>
  );
}

/** My orders (spec "Account: orders"): open positions, live, and the history of closed ones. */
export default function Orders() {
  use(tradeTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  const language = useClientState((s) => s.language);
  const [params, setParams] = useSearchParams();
  const tab: Tab =
    params.get('tab') === 'history' ? 'closed' : params.get('tab') === 'pending' ? 'pending' : 'open';
  const [message, setMessage] = useState('');
  const id = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (next: Tab, focus = false) => {
    setParams(next === 'closed' ? { tab: 'history' } : next === 'pending' ? { tab: 'pending' } : {}, {
      replace: true,
    });
    if (focus) tabRefs.current[TABS.indexOf(next)]?.focus();
  };
  const onKey = (event: React.KeyboardEvent, index: number) => {
    const rtl = LANGUAGE_TAGS[language] === 'ar';
    const forward = event.key === (rtl ? 'ArrowLeft' : 'ArrowRight');
    const backward = event.key === (rtl ? 'ArrowRight' : 'ArrowLeft');
    if (event.key === 'Home') choose('open', true);
    else if (event.key === 'End') choose('closed', true);
    else if (forward || backward)
      choose(TABS[(index + (forward ? 1 : -1) + TABS.length) % TABS.length] ?? 'open', true);
    else return;
    event.preventDefault();
  };
  return (
    <AccountPage title={t('title.orders')} book>
      <section className="card">
        <BookSwitch />
      </section>
      {/* Shown here; spoken by the shell's live region (announce), once. */}
      <p className="book-message">{message}</p>
      <div className="tabs-bar" role="tablist" aria-label={t('trade.tabs')}>
        {TABS.map((key, index) => (
          <button
            key={key}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${key}`}
            aria-selected={tab === key}
            aria-controls={`${id}-panel`}
            tabIndex={tab === key ? 0 : -1}
            onClick={() => choose(key)}
            onKeyDown={(event) => onKey(event, index)}
          >
            {key === 'open'
              ? t('trade.openTab')
              : key === 'pending'
                ? t('trade.pending.tab')
                : t('trade.historyTab')}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`}>
        {!user ? null : tab === 'pending' ? (
          <PendingOrders userId={user.id} onDone={setMessage} />
        ) : (
          <OrderList key={tab} userId={user.id} tab={tab} onDone={setMessage} />
        )}
      </div>
    </AccountPage>
  );
}

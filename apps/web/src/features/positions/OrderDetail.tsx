import type { Position } from '@swx/contract';
import { Code } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { use, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { ClosePosition, EditStops } from './OrderActions.tsx';
import { FigureList, useOrderRows } from './parts.tsx';
import { OPEN_REFRESH_MS, tradeQueries } from './queries.ts';
import { tradeTexts } from './texts.ts';

function OrderFields({ order }: { order: Position }) {
  const rows = useOrderRows(order);
  const [message, setMessage] = useState('');
  return (
    <section className="card order-detail" aria-labelledby="order-title" data-order={order.id}>
      <h2 id="order-title">
        <Link to={`/instrument?code=${encodeURIComponent(order.code)}&id=${order.marketId}`}>
          {order.code}
        </Link>{' '}
        <BookBadge book={order.book} />
      </h2>
      <FigureList rows={rows} className="detail-figures" />
      {/* Shown here; spoken by the shell's live region (announce), once. */}
      <p className="book-message">{message}</p>
      {order.status === 'open' ? (
        <div className="row">
          <EditStops order={order} onDone={setMessage} />
          <ClosePosition order={order} onDone={setMessage} />
        </div>
      ) : null}
    </section>
  );
}

function OrderLoader({ userId, id }: { userId: number; id: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const query = useQuery({
    ...tradeQueries.order(userId, book, id, language),
    refetchInterval: (q) => (q.state.data?.status === 'open' ? OPEN_REFRESH_MS : false),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) {
    if (query.error instanceof ApiFailure && query.error.code === Code.NOT_FOUND) return <NotFound />;
    return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  }
  return (
    <>
      <OrderFields order={query.data} />
      <p>
        <Link to={query.data.status === 'open' ? '/profile/orders' : '/profile/orders?tab=history'}>
          {t('trade.allOrders')}
        </Link>
      </p>
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="card page-state" data-testid="order-not-found">
      <p>{t('trade.notFound')}</p>
      <Link to="/profile/orders">{t('trade.allOrders')}</Link>
    </section>
  );
}

/** One position with every field of spec §3 Order, live while it is open. */
export default function OrderDetail() {
  use(tradeTexts);
  const { t } = useTranslation();
  const params = useParams();
  const user = useClientState((s) => s.userInfo);
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  return (
    <AccountPage title={t('title.orderDetail')}>
      {!valid ? <NotFound /> : user ? <OrderLoader userId={user.id} id={id} /> : null}
    </AccountPage>
  );
}

import { useQuery } from '@tanstack/react-query';
import { use, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { NftCard, NftNav } from './parts.tsx';
import { type MarketFilter, nftQueries } from './queries.ts';
import { nftTexts } from './texts.ts';
import './nft.css';

const STATES = ['live', 'upcoming', 'ended'] as const;
const SALE_TYPES = ['auction', 'fixed'] as const;

/** The filters from the page's address (`?state=live&sale=auction`), unknown values ignored. */
function filterOf(search: URLSearchParams): MarketFilter {
  const state = search.get('state');
  const sale = search.get('sale');
  return {
    ...((STATES as readonly string[]).includes(state ?? '') ? { state: state as MarketFilter['state'] } : {}),
    ...((SALE_TYPES as readonly string[]).includes(sale ?? '')
      ? { saleType: sale as MarketFilter['saleType'] }
      : {}),
  };
}

/** The two filters, each a labelled select that changes the address (so a filtered list is a link). */
function Filters({ filter }: { filter: MarketFilter }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const stateId = useId();
  const saleId = useId();
  const set = (key: 'state' | 'sale', value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    setSearch(next, { replace: true });
  };
  return (
    <form className="nft-filters" aria-label={t('nft.filters')} onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor={stateId}>{t('nft.filter.state')}</label>
        <select id={stateId} value={filter.state ?? ''} onChange={(e) => set('state', e.target.value)}>
          <option value="">{t('nft.filter.all')}</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t(`nft.filter.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={saleId}>{t('nft.filter.sale')}</label>
        <select id={saleId} value={filter.saleType ?? ''} onChange={(e) => set('sale', e.target.value)}>
          <option value="">{t('nft.filter.all')}</option>
          {SALE_TYPES.map((s) => (
            <option key={s} value={s}>
              {t(`nft.sale.${s}`)}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

function MarketList({ filter }: { filter: MarketFilter }) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const market = useQuery(nftQueries.market(book, userId, filter));
  if (market.isPending) return <Loading />;
  if (market.isError) return <Failed message={market.error.message} onRetry={() => void market.refetch()} />;
  if (market.data.nfts.length === 0) return <Empty text={t('nft.empty')} />;
  return (
    <ul className="nft-grid" aria-label={t('nft.listLabel')} data-testid="nft-market">
      {market.data.nfts.map((nft) => (
        <NftCard key={nft.id} nft={nft} receivedAt={market.data.receivedAt} />
      ))}
    </ul>
  );
}

/** /nfts: the charity market of the current book, filtered by state and sale type. */
export default function Market() {
  use(nftTexts);
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const filter = filterOf(search);
  return (
    <div className="container page nft-page">
      <h1 className="page-title">{t('title.nfts')}</h1>
      <p className="muted nft-intro">{t('nft.intro')}</p>
      <NftNav />
      <Filters filter={filter} />
      <MarketList filter={filter} />
    </div>
  );
}

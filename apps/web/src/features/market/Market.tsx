import { LANGUAGE_TAGS, type MarketItem } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { announce } from '../../ui/announce.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { MarketTable } from './MarketTable.tsx';
import { marketQueries } from './queries.ts';
import { virtualRows } from './VirtualRows.tsx';
import { useWatchlist } from './watch.ts';
import './market.css';

/** How long the search box rests before what it found is spoken. */
const SEARCH_ANNOUNCE_DELAY_MS = 1000;

const TABS = [
  { key: 'forex', type: 1 },
  { key: 'crypto', type: 2 },
  { key: 'stocks', type: 3 },
  { key: 'etf', type: 5 },
  { key: 'metals', type: 6 },
  { key: 'futures', type: 7 },
  { key: 'watchlist', type: 0 },
] as const;
type TabKey = (typeof TABS)[number]['key'];
type Sort = 'name' | 'price' | 'change' | 'change-asc';

function useFiltered(items: readonly MarketItem[] | undefined, search: string, sort: Sort) {
  return useMemo(() => {
    const needle = search.trim().toLowerCase();
    const list = (items ?? []).filter(
      (i) => !needle || i.code.toLowerCase().includes(needle) || i.appName.toLowerCase().includes(needle),
    );
    const sorted = [...list];
    if (sort === 'name') sorted.sort((a, b) => a.appName.localeCompare(b.appName));
    if (sort === 'price') sorted.sort((a, b) => Number(b.price) - Number(a.price));
    if (sort === 'change') sorted.sort((a, b) => Number(b.change) - Number(a.change));
    if (sort === 'change-asc') sorted.sort((a, b) => Number(a.change) - Number(b.change));
    return sorted;
  }, [items, search, sort]);
}

function Panel({ tab, search, sort }: { tab: TabKey; search: string; sort: Sort }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const watch = useWatchlist();
  const type = TABS.find((x) => x.key === tab)?.type ?? 2;
  const list = useQuery({ ...marketQueries.byType(language, type), enabled: tab !== 'watchlist' });
  const source = tab === 'watchlist' ? watch.query : list;
  // The list as it arrives, drawn at a transition's priority: in slices, not in one long task.
  const data = useDeferredValue(source.data);
  const items = useFiltered(data, search, sort);
  // What a search found is spoken once the reader stops typing, not on every key (WCAG 4.1.3).
  const found = items.length === 0 ? t('market.noResults') : t('market.count', { count: items.length });
  const lastSearch = useRef(search);
  const pending = useRef(false);
  useEffect(() => {
    if (lastSearch.current !== search) {
      lastSearch.current = search;
      pending.current = true;
    }
    if (!pending.current || source.isPending) return;
    const timer = setTimeout(() => {
      pending.current = false;
      announce(found);
    }, SEARCH_ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, found, source.isPending]);
  if (tab === 'watchlist' && !watch.enabled) {
    return (
      <div className="card">
        <p>{t('market.loginToWatch')}</p>
        <Link className="button primary" to="/pass/login">
          {t('action.login')}
        </Link>
      </div>
    );
  }
  if (source.isPending) return <Loading />;
  if (source.isError) return <Failed message={source.error.message} onRetry={() => void source.refetch()} />;
  if (!data) return <Loading />;
  if (items.length === 0)
    return (
      <Empty text={tab === 'watchlist' && !search ? t('market.emptyWatchlist') : t('market.noResults')} />
    );
  return (
    <>
      <p className="muted small">{t('market.count', { count: items.length })}</p>
      <MarketTable
        items={items}
        caption={t(`market.${tab}`)}
        watchedIds={watch.enabled ? watch.ids : undefined}
        onToggleWatch={watch.enabled ? watch.toggle : undefined}
        rows={virtualRows}
      />
    </>
  );
}

/** The search box and the sort order of the list. */
function MarketTools({
  search,
  onSearch,
  sort,
  onSort,
}: {
  search: string;
  onSearch: (search: string) => void;
  sort: Sort;
  onSort: (sort: Sort) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="market-tools">
      <label className="search">
        <span className="visually-hidden">{t('market.search')}</span>
        <input
          type="search"
          placeholder={t('market.search')}
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </label>
      <label>
        {t('market.sortBy')}{' '}
        <select value={sort} onChange={(e) => onSort(e.target.value as Sort)}>
          <option value="name">{t('market.sortName')}</option>
          <option value="price">{t('market.sortPrice')}</option>
          <option value="change">{t('market.sortChange')} ▼</option>
          <option value="change-asc">{t('market.sortChange')} ▲</option>
        </select>
      </label>
    </div>
  );
}

export default function Market() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const [params, setParams] = useSearchParams();
  const tab = (TABS.find((x) => x.key === params.get('tab'))?.key ?? 'crypto') as TabKey;
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('name');
  const id = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (key: TabKey, focus = false) => {
    setParams({ tab: key }, { replace: true });
    if (focus) tabRefs.current[TABS.findIndex((x) => x.key === key)]?.focus();
  };
  const onKey = (event: React.KeyboardEvent, index: number) => {
    const rtl = LANGUAGE_TAGS[language] === 'ar';
    const delta =
      event.key === 'ArrowRight' ? (rtl ? -1 : 1) : event.key === 'ArrowLeft' ? (rtl ? 1 : -1) : 0;
    if (event.key === 'Home') choose(TABS[0].key, true);
    else if (event.key === 'End') choose(TABS[TABS.length - 1]?.key ?? 'watchlist', true);
    else if (delta !== 0) choose(TABS[(index + delta + TABS.length) % TABS.length]?.key ?? 'crypto', true);
    else return;
    event.preventDefault();
  };
  return (
    <div className="container page">
      <h1 className="page-title">{t('title.market')}</h1>
      <div className="tabs-bar" role="tablist" aria-label={t('market.tabs')}>
        {TABS.map((x, index) => (
          <button
            key={x.key}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-${x.key}`}
            aria-selected={tab === x.key}
            aria-controls={`${id}-panel`}
            tabIndex={tab === x.key ? 0 : -1}
            onClick={() => choose(x.key)}
            onKeyDown={(event) => onKey(event, index)}
          >
            {t(`market.${x.key}`)}
          </button>
        ))}
      </div>
      <MarketTools search={search} onSearch={setSearch} sort={sort} onSort={setSort} />
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${tab}`}>
        <Panel tab={tab} search={search} sort={sort} />
      </div>
    </div>
  );
}

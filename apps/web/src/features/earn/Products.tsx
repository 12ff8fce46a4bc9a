import { EARN_ASSETS, type EarnProduct } from '@swx/contract';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { EarnPage, ProductCard } from './parts.tsx';
import { earnQueries, type ProductFilter } from './queries.ts';

/** Products as cards, with the page states of their loading. */
function ProductGrid({ query, empty }: { query: UseQueryResult<EarnProduct[]>; empty: string }) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  if (query.data.length === 0) return <Empty text={empty} />;
  return (
    <ul className="earn-grid" data-testid="earn-products">
      {query.data.map((product) => (
        <ProductCard key={product.id} product={product} />
      ))}
    </ul>
  );
}

const INCOMES = ['static', 'dynamic'] as const;
const TERMS = ['flexible', 'fixed'] as const;

/** One labelled select of the filters; "all" is the empty value. */
function FilterSelect<V extends string>({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: V | '';
  options: readonly { value: V; label: string }[];
  onChange: (value: V | '') => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="control"
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value as V | '')}
      >
        <option value="">{t('earn.filter.all')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function pick<V extends string>(values: readonly V[], value: string | null): V | undefined {
  return values.find((v) => v === value);
}

/** Crypto funds (/financial/cryptoInvest): filters kept in the address, the funds as cards. */
export function FundList() {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const [search, setSearch] = useSearchParams();
  const income = pick(INCOMES, search.get('income'));
  const term = pick(TERMS, search.get('term'));
  const asset = pick(EARN_ASSETS, search.get('asset'));
  const filter: ProductFilter = {
    ...(income ? { income } : {}),
    ...(term ? { term } : {}),
    ...(asset ? { asset } : {}),
  };
  const query = useQuery(earnQueries.funds(book, filter));
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };
  return (
    <EarnPage title={t('title.cryptoInvest')}>
      <p className="muted earn-intro">{t('earn.list.intro')}</p>
      <form
        className="card earn-filters"
        aria-label={t('earn.filter.label')}
        onSubmit={(e) => e.preventDefault()}
      >
        <FilterSelect
          label={t('earn.filter.income')}
          name="income"
          value={income ?? ''}
          options={INCOMES.map((value) => ({ value, label: t(`earn.income.${value}`) }))}
          onChange={(value) => set('income', value)}
        />
        <FilterSelect
          label={t('earn.filter.term')}
          name="term"
          value={term ?? ''}
          options={TERMS.map((value) => ({ value, label: t(`earn.filter.${value}`) }))}
          onChange={(value) => set('term', value)}
        />
        <FilterSelect
          label={t('earn.filter.asset')}
          name="asset"
          value={asset ?? ''}
          options={EARN_ASSETS.map((value) => ({ value, label: value }))}
          onChange={(value) => set('asset', value)}
        />
      </form>
      <ProductGrid
        query={query}
        empty={Object.keys(filter).length > 0 ? t('earn.list.noneMatch') : t('earn.list.none')}
      />
    </EarnPage>
  );
}

/** VIP funds (/financial/vipInvest): who may invest, then the products as cards. */
export function VipList() {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const query = useQuery(earnQueries.vip(book));
  return (
    <EarnPage title={t('title.vipInvest')}>
      <section className="card earn-vip-rule" aria-labelledby="vip-rule-title">
        <h2 id="vip-rule-title">{t('earn.vip.ruleTitle')}</h2>
        <p>{t('earn.vip.rule')}</p>
      </section>
      <ProductGrid query={query} empty={t('earn.vip.none')} />
    </EarnPage>
  );
}

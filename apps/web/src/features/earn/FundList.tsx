import { EARN_ASSETS } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { FilterSelect, INCOMES, ProductGrid, pick, TERMS } from './Products.tsx';
import { EarnPage } from './parts.tsx';
import { earnQueries, type ProductFilter } from './queries.ts';

/** Crypto funds (/financial/cryptoInvest): filters kept in the address, the funds as cards. */
export default function FundList() {
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
      <p className="muted product-intro">{t('earn.list.intro')}</p>
      <form
        className="card product-filters"
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

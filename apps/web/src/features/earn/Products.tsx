import type { EarnProduct } from '@swx/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty } from '../../ui/PageState.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { ProductCard } from './parts.tsx';

/** Products as cards, with the page states of their loading. */
export function ProductGrid({ query, empty }: { query: UseQueryResult<EarnProduct[]>; empty: string }) {
  if (!query.isSuccess) return <QueryState query={query} />;
  if (query.data.length === 0) return <Empty text={empty} />;
  return (
    <ul className="product-grid" data-testid="earn-products">
      {query.data.map((product) => (
        <ProductCard key={product.id} product={product} />
      ))}
    </ul>
  );
}

export const INCOMES = ['static', 'dynamic'] as const;
export const TERMS = ['flexible', 'fixed'] as const;

/** One labelled select of the filters; "all" is the empty value. */
export function FilterSelect<V extends string>({
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

export function pick<V extends string>(values: readonly V[], value: string | null): V | undefined {
  return values.find((v) => v === value);
}

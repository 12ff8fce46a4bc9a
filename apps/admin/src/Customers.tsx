import type { CustomerSummary, Language } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { callAdmin } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable, pagesOf, textColumn, timeColumn, useQueryState } from './DataTable.tsx';
import { Field } from './Field.tsx';
import { Screen } from './KitScreen.tsx';
import { keys } from './query.ts';
import type { Text } from './text.ts';

const PAGE = 50;

/** The customers found for `q`, newest first, PAGE a page. */
function useCustomerSearch(q: string) {
  const { language } = useBackOffice();
  return useInfiniteQuery({
    queryKey: keys.customerSearch(language, q),
    queryFn: ({ pageParam }) =>
      callAdmin('searchCustomers', { query: { q, ...(pageParam ? { before: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === PAGE ? String(last.at(-1)?.id ?? '') : undefined),
  });
}

/** The list's columns; a row's link keeps the search, so the customer's page leads back to it. */
function customerColumns(text: Text, language: Language, q: string) {
  const c = text.customers;
  const columns: Column<CustomerSummary>[] = [
    textColumn('id', c.id, (r) => r.id),
    textColumn('userName', c.userName, (r) => r.userName),
    { key: 'email', header: c.email, cell: (r) => r.email ?? '—', sortValue: (r) => r.email ?? '' },
    {
      key: 'status',
      header: c.status,
      cell: (r) => (r.status === 'locked' ? c.locked : c.active),
      sortValue: (r) => r.status,
    },
    { key: 'kyc', header: c.kyc, cell: (r) => text.kyc[r.kycState], sortValue: (r) => r.kycState },
    timeColumn('created', c.created, language, (r) => r.createdAt),
    {
      key: 'open',
      header: c.view,
      hiddenHeader: true,
      cell: (r) => (
        <Link
          to={q ? `/customers/${r.id}?q=${encodeURIComponent(q)}` : `/customers/${r.id}`}
          aria-label={`${c.view} ${r.userName}`}
        >
          {c.view}
        </Link>
      ),
    },
  ];
  return columns;
}

/** Customers: search by username, email or id (newest first, 50 a page); each opens its page. */
export function Customers() {
  const { text, language } = useBackOffice();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const query = useCustomerSearch(q);
  const state = useQueryState(query);
  return (
    <Screen heading={text.customers.heading}>
      <form
        className="search"
        onSubmit={(event) => {
          event.preventDefault();
          const next = draft.trim();
          setParams(next ? { q: next } : {});
          if (next === q) void query.refetch();
        }}
      >
        <Field
          label={text.customers.searchLabel}
          type="search"
          value={draft}
          maxLength={254}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="primary" disabled={query.isFetching && !query.isFetchingNextPage}>
          {text.customers.search}
        </button>
      </form>
      <DataTable
        caption={text.customers.heading}
        columns={customerColumns(text, language, q)}
        rows={query.data?.pages.flat()}
        rowKey={(c) => c.id}
        {...state}
        empty={text.customers.none}
        filterText={(c) => `${c.id} ${c.userName} ${c.email ?? ''}`}
        {...pagesOf(query)}
        testId="customers-table"
      />
    </Screen>
  );
}

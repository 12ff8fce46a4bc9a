import type { CustomerSummary } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { callAdmin, failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable, timeColumn } from './DataTable.tsx';
import { Field } from './Field.tsx';
import { keys } from './query.ts';

const PAGE = 50;

/** Customers: search by username, email or id (newest first, 50 a page); each opens its page. */
export function Customers() {
  const { text, language } = useBackOffice();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const headingId = useId();
  const query = useInfiniteQuery({
    queryKey: keys.customerSearch(language, q),
    queryFn: ({ pageParam }) =>
      callAdmin('searchCustomers', { query: { q, ...(pageParam ? { before: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === PAGE ? String(last.at(-1)?.id ?? '') : undefined),
  });
  const rows = query.data?.pages.flat();
  const columns: Column<CustomerSummary>[] = [
    { key: 'id', header: text.customers.id, cell: (c) => c.id, sortValue: (c) => c.id },
    {
      key: 'userName',
      header: text.customers.userName,
      cell: (c) => c.userName,
      sortValue: (c) => c.userName,
    },
    {
      key: 'email',
      header: text.customers.email,
      cell: (c) => c.email ?? '—',
      sortValue: (c) => c.email ?? '',
    },
    {
      key: 'status',
      header: text.customers.status,
      cell: (c) => (c.status === 'locked' ? text.customers.locked : text.customers.active),
      sortValue: (c) => c.status,
    },
    {
      key: 'kyc',
      header: text.customers.kyc,
      cell: (c) => text.kyc[c.kycState],
      sortValue: (c) => c.kycState,
    },
    timeColumn('created', text.customers.created, language, (c) => c.createdAt),
    {
      key: 'open',
      header: text.customers.view,
      hiddenHeader: true,
      cell: (c) => (
        <Link
          to={q ? `/customers/${c.id}?q=${encodeURIComponent(q)}` : `/customers/${c.id}`}
          aria-label={`${text.customers.view} ${c.userName}`}
        >
          {text.customers.view}
        </Link>
      ),
    },
  ];
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {text.customers.heading}
      </h2>
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
        columns={columns}
        rows={rows}
        rowKey={(c) => c.id}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={text.customers.none}
        filterText={(c) => `${c.id} ${c.userName} ${c.email ?? ''}`}
        hasMore={query.hasNextPage}
        loadingMore={query.isFetchingNextPage}
        onMore={() => void query.fetchNextPage()}
        testId="customers-table"
      />
    </section>
  );
}

import type { AuditEntry } from '@swx/contract';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { callAdmin, failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable, timeColumn } from './DataTable.tsx';
import { Alert, Field } from './Field.tsx';
import { keys } from './query.ts';
import { fill, formatTime } from './text.ts';

const FILTERS = ['actor', 'action', 'subject', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/**
 * The audit log (/admin/audit): filters by actor (a staff email, `staff:<id>` or `system`), action
 * (or its beginning), subject and days, kept in the URL; newest first with keyset pages; staff
 * actors by email; and the hash-chain check.
 */
export function AuditLog() {
  const { text, language } = useBackOffice();
  const t = text.audit;
  const headingId = useId();
  const [params, setParams] = useSearchParams();
  const applied = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Filters;
  const [draft, setDraft] = useState<Filters>(applied);
  const [dateError, setDateError] = useState<string | undefined>();
  const active = Object.fromEntries(Object.entries(applied).filter(([, v]) => v !== ''));
  const log = useInfiniteQuery({
    queryKey: keys.auditLog(language, active),
    queryFn: ({ pageParam }) =>
      callAdmin('auditLog', { query: { ...active, ...(pageParam ? { before: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const check = useMutation({ mutationFn: () => callAdmin('verifyAudit') });
  const rows = log.data?.pages.flatMap((p) => p.rows);
  const columns: Column<AuditEntry>[] = [
    { key: 'seq', header: t.seq, cell: (r) => r.seq, sortValue: (r) => r.seq },
    timeColumn('at', t.at, language, (r) => r.at),
    {
      key: 'actor',
      header: t.actorColumn,
      cell: (r) =>
        r.actorStaff ? <span title={r.actor}>{r.actorStaff.email}</span> : <code>{r.actor}</code>,
      sortValue: (r) => r.actorStaff?.email ?? r.actor,
    },
    {
      key: 'action',
      header: t.actionColumn,
      cell: (r) => <code>{r.action}</code>,
      sortValue: (r) => r.action,
    },
    {
      key: 'subject',
      header: t.subjectColumn,
      cell: (r) => <code>{r.subject}</code>,
      sortValue: (r) => r.subject,
    },
    {
      key: 'data',
      header: t.data,
      cell: (r) => (
        <code className="audit-data" dir="ltr">
          {r.data}
        </code>
      ),
    },
  ];
  const verdict = check.data;
  const reasons = {
    missing: t.reasonMissing,
    previous_hash: t.reasonPrevious,
    content_hash: t.reasonContent,
  };
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {t.heading}
      </h2>
      <div className="stack chain">
        <div className="actions">
          <button type="button" className="primary" disabled={check.isPending} onClick={() => check.mutate()}>
            {check.isPending ? t.checking : t.check}
          </button>
        </div>
        <div aria-live="polite">
          {verdict ? (
            <p className={verdict.ok ? 'success' : 'alert'} data-testid="chain-verdict">
              {verdict.ok
                ? fill(t.chainOk, { rows: verdict.rows, when: formatTime(language, verdict.checkedAt) })
                : fill(t.chainBroken, {
                    row: verdict.brokenAt ?? 0,
                    reason: verdict.reason ? reasons[verdict.reason] : '',
                    rows: verdict.rows,
                  })}
            </p>
          ) : null}
        </div>
        <Alert message={check.isError ? failureMessage(check.error, text.error.generic) : ''} />
      </div>
      <form
        className="filters"
        aria-label={t.filters}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.from && draft.to && draft.from > draft.to) {
            setDateError(t.dateOrder);
            return;
          }
          setDateError(undefined);
          setParams(
            Object.fromEntries(
              Object.entries(draft)
                .filter(([, v]) => v.trim() !== '')
                .map(([k, v]) => [k, v.trim()]),
            ),
          );
        }}
      >
        <Field
          label={t.actor}
          hint={t.actorHint}
          value={draft.actor}
          maxLength={254}
          onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
        />
        <Field
          label={t.action}
          hint={t.actionHint}
          value={draft.action}
          maxLength={100}
          onChange={(e) => setDraft({ ...draft, action: e.target.value })}
        />
        <Field
          label={t.subject}
          hint={t.subjectHint}
          value={draft.subject}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
        />
        <Field
          label={t.from}
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
        <Field
          label={t.to}
          type="date"
          value={draft.to}
          error={dateError}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
        <div className="actions">
          <button type="submit" className="primary">
            {t.apply}
          </button>
          <button
            type="button"
            onClick={() => {
              const empty = { actor: '', action: '', subject: '', from: '', to: '' };
              setDraft(empty);
              setDateError(undefined);
              setParams({});
            }}
          >
            {t.clear}
          </button>
        </div>
      </form>
      <DataTable
        caption={t.heading}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.seq}
        loading={log.isPending}
        failure={log.isError ? failureMessage(log.error, text.error.generic) : ''}
        onRetry={() => void log.refetch()}
        empty={t.empty}
        hasMore={log.hasNextPage}
        loadingMore={log.isFetchingNextPage}
        onMore={() => void log.fetchNextPage()}
        testId="audit-table"
      />
    </section>
  );
}

import type { AuditEntry, Language } from '@swx/contract';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { callAdmin, failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable, pagesOf, textColumn, timeColumn, useQueryState } from './DataTable.tsx';
import { Alert, Field } from './Field.tsx';
import { Screen } from './KitScreen.tsx';
import { keys } from './query.ts';
import { fill, formatTime, type Text } from './text.ts';

const FILTERS = ['actor', 'action', 'subject', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The log's columns: staff actors by email (the raw actor on hover), the rest as recorded. */
function auditColumns(t: Text['audit'], language: Language): Column<AuditEntry>[] {
  const code = (key: 'action' | 'subject', header: string): Column<AuditEntry> => ({
    key,
    header,
    cell: (r) => <code>{r[key]}</code>,
    sortValue: (r) => r[key],
  });
  return [
    textColumn('seq', t.seq, (r) => r.seq),
    timeColumn('at', t.at, language, (r) => r.at),
    {
      key: 'actor',
      header: t.actorColumn,
      cell: (r) =>
        r.actorStaff ? <span title={r.actor}>{r.actorStaff.email}</span> : <code>{r.actor}</code>,
      sortValue: (r) => r.actorStaff?.email ?? r.actor,
    },
    code('action', t.actionColumn),
    code('subject', t.subjectColumn),
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
}

/** The hash-chain check: the button, then the verdict (intact, or where and why it breaks). */
function ChainCheck() {
  const { text, language } = useBackOffice();
  const t = text.audit;
  const check = useMutation({ mutationFn: () => callAdmin('verifyAudit') });
  const verdict = check.data;
  const reasons = {
    missing: t.reasonMissing,
    previous_hash: t.reasonPrevious,
    content_hash: t.reasonContent,
  };
  return (
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
  );
}

const NO_FILTERS: Filters = { actor: '', action: '', subject: '', from: '', to: '' };

/** The filters as typed; applied, they go to the URL (trimmed, blank ones left out). */
function AuditFilters({ applied }: { applied: Filters }) {
  const { text } = useBackOffice();
  const t = text.audit;
  const [, setParams] = useSearchParams();
  const [draft, setDraft] = useState<Filters>(applied);
  const [dateError, setDateError] = useState<string | undefined>();
  const field = (name: keyof Filters) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });
  return (
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
      <Field label={t.actor} hint={t.actorHint} maxLength={254} {...field('actor')} />
      <Field label={t.action} hint={t.actionHint} maxLength={100} {...field('action')} />
      <Field label={t.subject} hint={t.subjectHint} maxLength={200} {...field('subject')} />
      <Field label={t.from} type="date" {...field('from')} />
      <Field label={t.to} type="date" error={dateError} {...field('to')} />
      <div className="actions">
        <button type="submit" className="primary">
          {t.apply}
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(NO_FILTERS);
            setDateError(undefined);
            setParams({});
          }}
        >
          {t.clear}
        </button>
      </div>
    </form>
  );
}

/**
 * The audit log (/admin/audit): filters by actor (a staff email, `staff:<id>` or `system`), action
 * (or its beginning), subject and days, kept in the URL; newest first with keyset pages; staff
 * actors by email; and the hash-chain check.
 */
export function AuditLog() {
  const { text, language } = useBackOffice();
  const t = text.audit;
  const [params] = useSearchParams();
  const applied = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Filters;
  const active = Object.fromEntries(Object.entries(applied).filter(([, v]) => v !== ''));
  const log = useInfiniteQuery({
    queryKey: keys.auditLog(language, active),
    queryFn: ({ pageParam }) =>
      callAdmin('auditLog', { query: { ...active, ...(pageParam ? { before: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const state = useQueryState(log);
  return (
    <Screen heading={t.heading}>
      <ChainCheck />
      <AuditFilters applied={applied} />
      <DataTable
        caption={t.heading}
        columns={auditColumns(t, language)}
        rows={log.data?.pages.flatMap((p) => p.rows)}
        rowKey={(r) => r.seq}
        {...state}
        empty={t.empty}
        {...pagesOf(log)}
        testId="audit-table"
      />
    </Screen>
  );
}

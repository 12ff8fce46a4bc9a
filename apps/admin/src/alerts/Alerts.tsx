import { STAFF_ALERT_STATES, type StaffAlert, type StaffAlertState } from '@swx/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, timeColumn } from '../DataTable.tsx';
import { Alert, Field } from '../Field.tsx';
import { keys } from '../query.ts';
import { fill, formatTime } from '../text.ts';
import { ALERTS_TEXT } from './alerts.text.ts';

const isState = (value: string | null): value is StaffAlertState =>
  (STAFF_ALERT_STATES as readonly string[]).includes(value ?? '');

/**
 * Staff alerts (/admin/alerts): what the system raised for a person (a settlement or reserve that
 * cannot pay, a reconciliation difference, a failed job), by state (in the URL), newest first.
 * Acknowledge says someone is on it; resolve closes it with a note of what was done. Both are
 * audited; each alert was mailed to the roles that act on it.
 */
export function Alerts() {
  const { text, language } = useBackOffice();
  const t = ALERTS_TEXT[language];
  const headingId = useId();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state: StaffAlertState = isState(params.get('state'))
    ? (params.get('state') as StaffAlertState)
    : 'open';
  const [resolving, setResolving] = useState<StaffAlert | null>(null);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();

  const list = useInfiniteQuery({
    queryKey: keys.alertList(language, state),
    queryFn: ({ pageParam }) =>
      callAdmin('listStaffAlerts', { query: { state, ...(pageParam ? { before: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === 50 ? String(last.at(-1)?.id) : undefined),
  });
  const done = async () => {
    await client.invalidateQueries({ queryKey: keys.alerts });
  };
  const acknowledge = useMutation({
    mutationFn: (id: number) => callAdmin('acknowledgeStaffAlert', { params: { id } }),
    onSuccess: done,
  });
  const resolve = useMutation({
    mutationFn: (input: { id: number; note: string }) =>
      callAdmin('resolveStaffAlert', { params: { id: input.id }, body: { note: input.note } }),
    onSuccess: async () => {
      setResolving(null);
      setNote('');
      await done();
    },
  });

  const kindName = (kind: string) => {
    const names: Record<string, string> = t.kind;
    return Object.hasOwn(names, kind) ? (names[kind] as string) : kind;
  };
  const who = (ref: StaffAlert['acknowledgedBy'], at: string | null) =>
    ref && at ? fill(t.byAt, { email: ref.email, when: formatTime(language, at) }) : '';
  const columns: Column<StaffAlert>[] = [
    { key: 'id', header: t.id, cell: (r) => r.id, sortValue: (r) => r.id },
    timeColumn('createdAt', t.raised, language, (r) => r.createdAt),
    { key: 'kind', header: t.kindColumn, cell: (r) => kindName(r.kind), sortValue: (r) => r.kind },
    {
      key: 'message',
      header: t.message,
      cell: (r) => (
        <span dir="ltr" className="alert-message">
          {r.message}
        </span>
      ),
    },
    { key: 'state', header: t.state, cell: (r) => t.states[r.state], sortValue: (r) => r.state },
    {
      key: 'mailed',
      header: t.mailed,
      cell: (r) =>
        r.mailedAt
          ? fill(t.mailedTo, {
              roles: r.mailedTo.map((role) => text.roles[role as keyof typeof text.roles] ?? role).join(', '),
            })
          : t.notMailed,
    },
    {
      key: 'handled',
      header: t.handled,
      cell: (r) =>
        [who(r.acknowledgedBy, r.acknowledgedAt), who(r.resolvedBy, r.resolvedAt)]
          .filter(Boolean)
          .join(' · '),
    },
    {
      key: 'actions',
      header: t.actions,
      hiddenHeader: true,
      cell: (r) => (
        <div className="actions">
          {r.state === 'open' ? (
            <button
              type="button"
              disabled={acknowledge.isPending}
              onClick={() => acknowledge.mutate(r.id)}
              aria-label={fill(t.acknowledgeOne, { id: r.id })}
            >
              {t.acknowledge}
            </button>
          ) : null}
          {r.state !== 'resolved' ? (
            <button
              type="button"
              onClick={() => {
                setResolving(r);
                setNoteError(undefined);
              }}
              aria-label={fill(t.resolveOne, { id: r.id })}
            >
              {t.resolve}
            </button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {t.heading}
      </h2>
      <p className="hint">{t.intro}</p>
      <nav aria-label={t.stateFilter} className="actions">
        {STAFF_ALERT_STATES.map((s) => (
          <button
            key={s}
            type="button"
            className={s === state ? 'primary' : undefined}
            aria-pressed={s === state}
            onClick={() => setParams(s === 'open' ? {} : { state: s })}
          >
            {t.states[s]}
          </button>
        ))}
      </nav>
      <Alert message={acknowledge.isError ? failureMessage(acknowledge.error, text.error.generic) : ''} />
      {resolving ? (
        <form
          className="stack"
          aria-label={fill(t.resolveOne, { id: resolving.id })}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const trimmed = note.trim();
            if (trimmed.length < 3) {
              setNoteError(t.noteTooShort);
              return;
            }
            resolve.mutate({ id: resolving.id, note: trimmed });
          }}
        >
          <p>{fill(t.resolving, { id: resolving.id, kind: kindName(resolving.kind) })}</p>
          <Field
            label={t.note}
            hint={t.noteHint}
            value={note}
            maxLength={500}
            error={noteError}
            onChange={(e) => setNote(e.target.value)}
          />
          <Alert message={resolve.isError ? failureMessage(resolve.error, text.error.generic) : ''} />
          <div className="actions">
            <button type="submit" className="primary" disabled={resolve.isPending}>
              {t.resolve}
            </button>
            <button type="button" onClick={() => setResolving(null)}>
              {t.cancel}
            </button>
          </div>
        </form>
      ) : null}
      <DataTable
        caption={fill(t.caption, { state: t.states[state] })}
        columns={columns}
        rows={list.data?.pages.flat()}
        rowKey={(r) => r.id}
        loading={list.isPending}
        failure={list.isError ? failureMessage(list.error, text.error.generic) : ''}
        onRetry={() => void list.refetch()}
        empty={t.empty}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        onMore={() => void list.fetchNextPage()}
        testId="alerts-table"
      />
    </section>
  );
}

import { STAFF_ALERT_STATES, type StaffAlert, type StaffAlertState } from '@swx/contract';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { callAdmin, failureMessage } from '../api.ts';
import { type BackOfficeContext, useBackOffice } from '../context.ts';
import { type Column, DataTable, pagesOf, textColumn, timeColumn, useQueryState } from '../DataTable.tsx';
import { Alert } from '../Field.tsx';
import { ReasonField, Screen, useReason } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill, formatTime } from '../text.ts';
import { ALERTS_TEXT, type AlertsText } from './alerts.text.ts';

const isState = (value: string | null): value is StaffAlertState =>
  (STAFF_ALERT_STATES as readonly string[]).includes(value ?? '');

/** An alert's kind in words (an unknown kind as it is). */
function kindName(t: AlertsText, kind: string): string {
  const names: Record<string, string> = t.kind;
  return Object.hasOwn(names, kind) ? (names[kind] as string) : kind;
}

/** The alerts of a state, newest first, 50 a page. */
function useAlertList(state: StaffAlertState) {
  const { language } = useBackOffice();
  return useInfiniteQuery({
    queryKey: keys.alertList(language, state),
    queryFn: ({ pageParam }) =>
      callAdmin('listStaffAlerts', { query: { state, ...(pageParam ? { before: pageParam } : {}) } }),
    initialPageParam: '',
    getNextPageParam: (last) => (last.length === 50 ? String(last.at(-1)?.id) : undefined),
  });
}

/** Acknowledge and resolve (with a note), and the alert being resolved; both reload the lists. */
function useAlertActions(t: AlertsText) {
  const client = useQueryClient();
  const [resolving, setResolving] = useState<StaffAlert | null>(null);
  const note = useReason(t.noteTooShort);
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
      note.setValue('');
      await done();
    },
  });
  const startResolving = (alert: StaffAlert) => {
    setResolving(alert);
    note.setError(undefined);
  };
  return { acknowledge, resolve, resolving, setResolving, startResolving, note };
}

type Actions = ReturnType<typeof useAlertActions>;

/** An alert's buttons: acknowledge while open, resolve until resolved. */
function AlertButtons({ alert: r, t, actions }: { alert: StaffAlert; t: AlertsText; actions: Actions }) {
  const { acknowledge } = actions;
  return (
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
          onClick={() => actions.startResolving(r)}
          aria-label={fill(t.resolveOne, { id: r.id })}
        >
          {t.resolve}
        </button>
      ) : null}
    </div>
  );
}

/** The alerts' columns: what was raised when, who was mailed, who handled it, and its buttons. */
function alertColumns(
  { text, language }: BackOfficeContext,
  t: AlertsText,
  actions: Actions,
): Column<StaffAlert>[] {
  const who = (ref: StaffAlert['acknowledgedBy'], at: string | null) =>
    ref && at ? fill(t.byAt, { email: ref.email, when: formatTime(language, at) }) : '';
  return [
    textColumn('id', t.id, (r) => r.id),
    timeColumn('createdAt', t.raised, language, (r) => r.createdAt),
    { key: 'kind', header: t.kindColumn, cell: (r) => kindName(t, r.kind), sortValue: (r) => r.kind },
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
      cell: (r) => <AlertButtons alert={r} t={t} actions={actions} />,
    },
  ];
}

/** The form that resolves an alert: what was done (a note of 3 characters at least), resolve or cancel. */
function ResolveForm({ alert, t, actions }: { alert: StaffAlert; t: AlertsText; actions: Actions }) {
  const { text } = useBackOffice();
  const { resolve, note } = actions;
  return (
    <form
      className="stack"
      aria-label={fill(t.resolveOne, { id: alert.id })}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const given = note.checked();
        if (given !== null) resolve.mutate({ id: alert.id, note: given });
      }}
    >
      <p>{fill(t.resolving, { id: alert.id, kind: kindName(t, alert.kind) })}</p>
      <ReasonField label={t.note} hint={t.noteHint} reason={note} />
      <Alert message={resolve.isError ? failureMessage(resolve.error, text.error.generic) : ''} />
      <div className="actions">
        <button type="submit" className="primary" disabled={resolve.isPending}>
          {t.resolve}
        </button>
        <button type="button" onClick={() => actions.setResolving(null)}>
          {t.cancel}
        </button>
      </div>
    </form>
  );
}

/** The state filter: one pressed button per state (open, the default, is not in the URL). */
function StateFilter({ t, state }: { t: AlertsText; state: StaffAlertState }) {
  const [, setParams] = useSearchParams();
  return (
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
  );
}

/**
 * Staff alerts (/admin/alerts): what the system raised for a person (a settlement or reserve that
 * cannot pay, a reconciliation difference, a failed job), by state (in the URL), newest first.
 * Acknowledge says someone is on it; resolve closes it with a note of what was done. Both are
 * audited; each alert was mailed to the roles that act on it.
 */
export function Alerts() {
  const context = useBackOffice();
  const { text, language } = context;
  const t = ALERTS_TEXT[language];
  const [params] = useSearchParams();
  const state: StaffAlertState = isState(params.get('state'))
    ? (params.get('state') as StaffAlertState)
    : 'open';
  const list = useAlertList(state);
  const listState = useQueryState(list);
  const actions = useAlertActions(t);
  const { acknowledge, resolving } = actions;
  return (
    <Screen heading={t.heading}>
      <p className="hint">{t.intro}</p>
      <StateFilter t={t} state={state} />
      <Alert message={acknowledge.isError ? failureMessage(acknowledge.error, text.error.generic) : ''} />
      {resolving ? <ResolveForm alert={resolving} t={t} actions={actions} /> : null}
      <DataTable
        caption={fill(t.caption, { state: t.states[state] })}
        columns={alertColumns(context, t, actions)}
        rows={list.data?.pages.flat()}
        rowKey={(r) => r.id}
        {...listState}
        empty={t.empty}
        {...pagesOf(list)}
        testId="alerts-table"
      />
    </Screen>
  );
}

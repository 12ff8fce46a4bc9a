import { STAFF_ROLES, type StaffListItem, type StaffRole } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { callAdmin, failureMessage, StaffApiError } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable, timeColumn, useQueryState } from './DataTable.tsx';
import { Alert, Done, Field, SelectField } from './Field.tsx';
import { Screen } from './KitScreen.tsx';
import { keys } from './query.ts';
import { fill } from './text.ts';

type Pending =
  | { kind: 'disable' | 'enable' | 'reset'; member: StaffListItem }
  | { kind: 'role'; member: StaffListItem; role: StaffRole };

/** The change of an account being confirmed, and the call that makes it once confirmed. */
function useStaffChange() {
  const { text } = useBackOffice();
  const t = text.staff;
  const client = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState('');
  const change = useMutation({
    mutationFn: (action: Pending) =>
      action.kind === 'reset'
        ? callAdmin('resetStaffTotp', { params: { id: action.member.id } })
        : callAdmin('updateStaff', {
            params: { id: action.member.id },
            body:
              action.kind === 'role'
                ? { role: action.role }
                : { status: action.kind === 'disable' ? 'disabled' : 'active' },
          }),
    onSuccess: async (_row, action) => {
      setPending(null);
      setDone(
        { role: t.roleChanged, disable: t.disabledDone, enable: t.enabledDone, reset: t.resetDone }[
          action.kind
        ],
      );
      await client.invalidateQueries({ queryKey: keys.staff });
    },
  });
  return { pending, setPending, done, change };
}

type Change = ReturnType<typeof useStaffChange>;

/** A change as the server refuses it: yourself or the last active admin (10008), else its words. */
function useRefused() {
  const { text } = useBackOffice();
  return (error: unknown) =>
    error instanceof StaffApiError && error.code === 10008
      ? text.staff.refusedSelfOrLastAdmin
      : failureMessage(error, text.error.generic);
}

/** The question of the change waiting, its failure, confirm and cancel; focused when it opens. */
function ConfirmChange({
  pending,
  setPending,
  change,
}: Pick<Change, 'setPending' | 'change'> & { pending: Pending }) {
  const { text } = useBackOffice();
  const t = text.staff;
  const refused = useRefused();
  const confirmRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (pending) confirmRef.current?.focus();
  }, [pending]);
  const question = fill(
    { role: t.confirmRole, disable: t.confirmDisable, enable: t.confirmEnable, reset: t.confirmReset }[
      pending.kind
    ],
    { email: pending.member.email, role: pending.kind === 'role' ? text.roles[pending.role] : '' },
  );
  return (
    <section className="confirm" aria-labelledby="staff-confirm" tabIndex={-1} ref={confirmRef}>
      <p id="staff-confirm">{question}</p>
      <Alert message={change.isError ? refused(change.error) : ''} />
      <div className="actions">
        <button
          type="button"
          className={pending.kind === 'disable' || pending.kind === 'reset' ? 'danger' : 'primary'}
          disabled={change.isPending}
          onClick={() => change.mutate(pending)}
        >
          {t.confirm}
        </button>
        <button
          type="button"
          onClick={() => {
            setPending(null);
            change.reset();
          }}
        >
          {t.cancel}
        </button>
      </div>
    </section>
  );
}

/** An account's actions: a role to choose and change to, disable or enable, reset two-step verification. */
function MemberActions({
  member: m,
  chosen,
  onChoose,
  setPending,
}: {
  member: StaffListItem;
  chosen: StaffRole;
  onChoose: (role: StaffRole) => void;
  setPending: (pending: Pending) => void;
}) {
  const { text, staff: me } = useBackOffice();
  const t = text.staff;
  return (
    <div className="row-actions">
      <SelectField
        label={fill(t.roleOf, { email: m.email })}
        hiddenLabel
        value={chosen}
        onChange={(e) => onChoose(e.target.value as StaffRole)}
        options={STAFF_ROLES.map((r) => ({ value: r, label: text.roles[r] }))}
      />
      <button
        type="button"
        disabled={chosen === m.role}
        onClick={() => setPending({ kind: 'role', member: m, role: chosen })}
      >
        {t.changeRole}
        <span className="visually-hidden"> {m.email}</span>
      </button>
      {m.id === me?.id ? null : (
        <>
          <button
            type="button"
            className={m.status === 'active' ? 'danger' : undefined}
            onClick={() => setPending({ kind: m.status === 'active' ? 'disable' : 'enable', member: m })}
          >
            {m.status === 'active' ? t.disable : t.enable}
            <span className="visually-hidden"> {m.email}</span>
          </button>
          {m.enrolled ? (
            <button type="button" onClick={() => setPending({ kind: 'reset', member: m })}>
              {t.reset}
              <span className="visually-hidden"> {m.email}</span>
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}

/** The accounts' columns; the last holds each account's actions (`roles`: the role chosen per row). */
function staffColumns(
  context: ReturnType<typeof useBackOffice>,
  roles: Record<number, StaffRole>,
  setRoles: (roles: Record<number, StaffRole>) => void,
  setPending: (pending: Pending) => void,
): Column<StaffListItem>[] {
  const { text, language, staff: me } = context;
  const t = text.staff;
  return [
    {
      key: 'email',
      header: t.email,
      cell: (m) => (m.id === me?.id ? `${m.email} ${t.you}` : m.email),
      sortValue: (m) => m.email,
    },
    { key: 'role', header: t.role, cell: (m) => text.roles[m.role], sortValue: (m) => m.role },
    {
      key: 'status',
      header: t.status,
      cell: (m) => (m.status === 'active' ? t.active : t.disabled),
      sortValue: (m) => m.status,
    },
    {
      key: 'enrolled',
      header: t.twoStep,
      cell: (m) => (m.enrolled ? t.twoStepOn : t.twoStepOff),
      sortValue: (m) => (m.enrolled ? 1 : 0),
    },
    timeColumn('created', t.createdAt, language, (m) => m.createdAt),
    {
      key: 'actions',
      header: t.actions,
      hiddenHeader: true,
      cell: (m) => (
        <MemberActions
          member={m}
          chosen={roles[m.id] ?? m.role}
          onChoose={(role) => setRoles({ ...roles, [m.id]: role })}
          setPending={setPending}
        />
      ),
    },
  ];
}

/** The one-time password of a new account, shown once and focused, until it is passed on. */
function OneTimePassword({
  created,
  onDone,
}: {
  created: { email: string; password: string };
  onDone: () => void;
}) {
  const { text } = useBackOffice();
  const t = text.staff;
  const createdRef = useRef<HTMLElement>(null);
  useEffect(() => {
    createdRef.current?.focus();
  }, []);
  return (
    <section className="one-time" aria-labelledby="one-time-heading" tabIndex={-1} ref={createdRef}>
      <p id="one-time-heading">
        <strong>{t.oneTimeHeading}</strong>
      </p>
      <p>{fill(t.oneTimeHint, { email: created.email })}</p>
      <p>
        <code data-testid="one-time-password" dir="ltr">
          {created.password}
        </code>
      </p>
      <div className="actions">
        <button type="button" className="primary" onClick={onDone}>
          {t.oneTimeDone}
        </button>
      </div>
    </section>
  );
}

/** A new account: email and role, then its one-time password; a taken email (10007) said so. */
function NewStaff() {
  const { text } = useBackOffice();
  const t = text.staff;
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('support');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const create = useMutation({
    mutationFn: (input: { email: string; role: StaffRole }) => callAdmin('createStaff', { body: input }),
    onSuccess: async (result) => {
      setCreated({ email: result.staff.email, password: result.oneTimePassword });
      setEmail('');
      await client.invalidateQueries({ queryKey: keys.staff });
    },
  });
  const failure = !create.isError
    ? ''
    : create.error instanceof StaffApiError && create.error.code === 10007
      ? t.emailTaken
      : failureMessage(create.error, text.error.generic);
  return (
    <>
      <h3>{t.createHeading}</h3>
      {created ? (
        <OneTimePassword created={created} onDone={() => setCreated(null)} />
      ) : (
        <form
          className="search"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const value = email.trim();
            if (!/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24}$/.test(value)) {
              setEmailError(t.emailInvalid);
              return;
            }
            setEmailError(undefined);
            create.mutate({ email: value, role });
          }}
        >
          <Field
            label={t.email}
            type="email"
            autoComplete="off"
            maxLength={254}
            value={email}
            error={emailError}
            onChange={(e) => setEmail(e.target.value)}
          />
          <SelectField
            label={t.role}
            value={role}
            onChange={(e) => setRole(e.target.value as StaffRole)}
            options={STAFF_ROLES.map((r) => ({ value: r, label: text.roles[r] }))}
          />
          <button type="submit" className="primary" disabled={create.isPending}>
            {t.create}
          </button>
        </form>
      )}
      <Alert message={failure} />
    </>
  );
}

/**
 * Staff accounts (admins only): the list, a new account with its one-time password shown once,
 * and per account a role change, disable / enable and a reset of two-step verification, each
 * confirmed first. The server refuses disabling yourself and leaving no active admin.
 */
export function StaffScreen() {
  const context = useBackOffice();
  const { text, language } = context;
  const t = text.staff;
  const list = useQuery({ queryKey: keys.staffList(language), queryFn: () => callAdmin('listStaff') });
  const state = useQueryState(list);
  const [roles, setRoles] = useState<Record<number, StaffRole>>({});
  const { pending, setPending, done, change } = useStaffChange();
  return (
    <Screen heading={t.heading}>
      <Done message={done} />
      {pending ? <ConfirmChange pending={pending} setPending={setPending} change={change} /> : null}
      <DataTable
        caption={t.heading}
        columns={staffColumns(context, roles, setRoles, setPending)}
        rows={list.data}
        rowKey={(m) => m.id}
        {...state}
        empty={t.empty}
        filterText={(m) => `${m.email} ${text.roles[m.role]}`}
        testId="staff-table"
      />
      <NewStaff />
    </Screen>
  );
}

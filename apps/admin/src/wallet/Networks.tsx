import { adminCalls, type Network, networkUpdateBody } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { allowed, callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column, DataTable, plain } from '../DataTable.tsx';
import { Field, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import './wallet.css';

/** The editable fields of a network, as typed (numbers are sent as integers). */
const TEXT_FIELDS = [
  'name',
  'depositMinimum',
  'withdrawalFeeRate',
  'withdrawalMinimum',
  'withdrawalMaximum',
] as const;
const INT_FIELDS = ['creditConfirmations', 'unlockConfirmations', 'blockSeconds', 'arrivalMinutes'] as const;
type FieldName = (typeof TEXT_FIELDS)[number] | (typeof INT_FIELDS)[number];
type Draft = Record<FieldName, string> & { enabled: boolean };

const draftOf = (n: Network): Draft => ({
  name: n.name,
  depositMinimum: plain(n.depositMinimum),
  withdrawalFeeRate: n.withdrawalFeeRate,
  withdrawalMinimum: plain(n.withdrawalMinimum),
  withdrawalMaximum: plain(n.withdrawalMaximum),
  creditConfirmations: String(n.creditConfirmations),
  unlockConfirmations: String(n.unlockConfirmations),
  blockSeconds: String(n.blockSeconds),
  arrivalMinutes: String(n.arrivalMinutes),
  enabled: n.enabled,
});

const bodyOf = (id: string, d: Draft) => ({
  id,
  name: d.name,
  depositMinimum: d.depositMinimum,
  withdrawalFeeRate: d.withdrawalFeeRate,
  withdrawalMinimum: d.withdrawalMinimum,
  withdrawalMaximum: d.withdrawalMaximum,
  creditConfirmations: Number(d.creditConfirmations),
  unlockConfirmations: Number(d.unlockConfirmations),
  blockSeconds: Number(d.blockSeconds),
  arrivalMinutes: Number(d.arrivalMinutes),
  enabled: d.enabled,
});

/** The fields named by issues (the schema's, or a 10026 answer's `{path}`). */
function fieldsOf(issues: readonly { path: string }[]): Set<string> {
  return new Set(issues.map((i) => i.path.split('.')[0] ?? ''));
}

/** One network's form: limits, depths, block time, fee rate, arrival time and the switch. */
function EditNetwork({ network, onDone }: { network: Network; onDone: (message: string) => void }) {
  const { text } = useBackOffice();
  const w = text.wallet;
  const client = useQueryClient();
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(network));
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOf>) => callAdmin('updateNetwork', { body }),
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: keys.networks });
      onDone(fill(w.networkSaved, { id: saved.id }));
    },
    onError: (error) => {
      if (error instanceof StaffApiError && Array.isArray(error.data))
        setInvalid(fieldsOf(error.data as { path: string }[]));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(network.id, draft);
    const checked = networkUpdateBody.safeParse(body);
    if (!checked.success) {
      setInvalid(fieldsOf(checked.error.issues.map((i) => ({ path: i.path.map(String).join('.') }))));
      return;
    }
    setInvalid(new Set());
    save.mutate(checked.data);
  };
  const field = (name: FieldName, numeric: boolean) => (
    <Field
      key={name}
      label={w.fields[name]}
      name={name}
      dir="ltr"
      inputMode={numeric ? 'numeric' : name === 'name' ? undefined : 'decimal'}
      value={draft[name]}
      error={invalid.has(name) ? w.checkValue : undefined}
      onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
    />
  );
  return (
    <form className="panel network-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>{fill(w.editHeading, { id: network.id })}</h3>
      <div className="network-fields">
        {TEXT_FIELDS.map((name) => field(name, false))}
        {INT_FIELDS.map((name) => field(name, true))}
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="enabled"
          checked={draft.enabled}
          onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))}
        />
        {w.fields.enabled}
      </label>
      <SubmitRow
        failure={save.isError ? failureMessage(save.error, text.error.generic) : ''}
        busy={save.isPending}
        label={w.save}
      >
        <button type="button" onClick={() => onDone('')}>
          {w.cancel}
        </button>
      </SubmitRow>
    </form>
  );
}

/** Networks (/admin/networks): every network's terms, and a form to change one (audited). */
export function Networks() {
  const { text, language, staff } = useBackOffice();
  // Fees, confirmations, minimums and limits are customer terms: admins change them (roles.ts).
  const mayEdit = allowed(staff, adminCalls.updateNetwork);
  const w = text.wallet;
  const headingId = useId();
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const query = useQuery({
    queryKey: keys.networkList(language),
    queryFn: () => callAdmin('listNetworksAdmin'),
  });
  const columns: Column<Network>[] = [
    { key: 'id', header: w.networkId, cell: (n) => n.id, sortValue: (n) => n.id },
    { key: 'name', header: w.fields.name, cell: (n) => n.name, sortValue: (n) => n.name },
    {
      key: 'deposit',
      header: w.fields.depositMinimum,
      cell: (n) => <Amount value={`${plain(n.depositMinimum)} ${n.asset}`} />,
    },
    {
      key: 'depths',
      header: w.depths,
      cell: (n) =>
        n.watched
          ? fill(w.depthsValue, {
              credit: n.creditConfirmations,
              unlock: n.unlockConfirmations,
              seconds: n.blockSeconds,
            })
          : w.notWatched,
    },
    {
      key: 'fee',
      header: w.fields.withdrawalFeeRate,
      cell: (n) => <Amount value={n.withdrawalFeeRate} />,
    },
    {
      key: 'limits',
      header: w.withdrawalRange,
      cell: (n) => (
        <Amount value={`${plain(n.withdrawalMinimum)} – ${plain(n.withdrawalMaximum)} ${n.asset}`} />
      ),
    },
    {
      key: 'arrival',
      header: w.fields.arrivalMinutes,
      cell: (n) => n.arrivalMinutes,
      sortValue: (n) => n.arrivalMinutes,
    },
    {
      key: 'enabled',
      header: w.fields.enabled,
      cell: (n) => (n.enabled ? w.on : w.off),
      sortValue: (n) => (n.enabled ? 1 : 0),
    },
  ];
  if (mayEdit)
    columns.push({
      key: 'edit',
      header: w.edit,
      hiddenHeader: true,
      cell: (n) => (
        <button
          type="button"
          aria-label={fill(w.editHeading, { id: n.id })}
          onClick={() => {
            setDone('');
            setEditing(n.id);
          }}
        >
          {w.edit}
        </button>
      ),
    });
  const network = query.data?.find((n) => n.id === editing);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {w.networksHeading}
      </h2>
      <p className="muted">{w.networksIntro}</p>
      {mayEdit ? null : <p className="muted">{w.networksReadOnly}</p>}
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption={w.networksHeading}
        columns={columns}
        rows={query.data}
        rowKey={(n) => n.id}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={w.networksEmpty}
        filterText={(n) => `${n.id} ${n.name}`}
        testId="networks-table"
      />
      {network ? (
        <EditNetwork
          key={network.id}
          network={network}
          onDone={(message) => {
            setEditing(null);
            setDone(message);
          }}
        />
      ) : null}
    </section>
  );
}

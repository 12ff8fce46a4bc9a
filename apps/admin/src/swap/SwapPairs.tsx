import { adminCalls, type SwapPairAdmin, swapPairUpdateBody } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { allowed, callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column, DataTable, plain, timeColumn } from '../DataTable.tsx';
import { Field, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { percentToRatio, ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import './swap.css';

/** A pair's name, as its row key, its URL-free id and its heading: "BTC → USDT". */
const pairName = (p: { from: string; to: string }) => `${p.from} → ${p.to}`;
const pairKey = (p: { from: string; to: string }) => `${p.from}-${p.to}`;

type UpdateBody = ReturnType<typeof swapPairUpdateBody.parse>;

type Draft = { min: string; max: string; feePercent: string; enabled: boolean };

const draftOf = (p: SwapPairAdmin): Draft => ({
  min: plain(p.min),
  max: plain(p.max),
  feePercent: ratioToPercent(p.feeRate),
  enabled: p.enabled,
});

/** The fields a list of issues names (the schema's, or a 10026 answer's `{path}`), by the form's names. */
function fieldsOf(paths: readonly string[]): Set<string> {
  return new Set(
    paths.map((path) => (path.split('.')[0] === 'feeRate' ? 'feePercent' : (path.split('.')[0] ?? ''))),
  );
}

/** One pair's form: limits (in the `from` asset), the fee rate (typed in per cent) and the switch. */
function EditPair({ pair, onDone }: { pair: SwapPairAdmin; onDone: (message: string) => void }) {
  const { text } = useBackOffice();
  const s = text.swap;
  const client = useQueryClient();
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(pair));
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const save = useMutation({
    mutationFn: (body: UpdateBody) => callAdmin('updateSwapPair', { body }),
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: keys.swap });
      onDone(fill(s.saved, { pair: pairName(saved) }));
    },
    onError: (error) => {
      if (error instanceof StaffApiError && Array.isArray(error.data))
        setInvalid(fieldsOf((error.data as { path: string }[]).map((i) => i.path)));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = swapPairUpdateBody.safeParse({
      from: pair.from,
      to: pair.to,
      min: draft.min.trim(),
      max: draft.max.trim(),
      feeRate: percentToRatio(draft.feePercent) ?? '',
      enabled: draft.enabled,
    });
    if (!checked.success) {
      setInvalid(fieldsOf(checked.error.issues.map((i) => i.path.map(String).join('.'))));
      return;
    }
    setInvalid(new Set());
    save.mutate(checked.data);
  };
  const field = (name: 'min' | 'max' | 'feePercent', label: string) => (
    <Field
      label={label}
      name={name}
      dir="ltr"
      inputMode="decimal"
      autoComplete="off"
      value={draft[name]}
      error={invalid.has(name) ? s.checkValue : undefined}
      onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
    />
  );
  return (
    <form
      className="panel swap-pair-form"
      aria-labelledby={headingId}
      onSubmit={submit}
      noValidate
      data-testid="swap-pair-form"
    >
      <h3 id={headingId}>{fill(s.editHeading, { pair: pairName(pair) })}</h3>
      <p className="muted">{s.editIntro}</p>
      <div className="swap-pair-fields">
        {field('min', fill(s.fields.min, { asset: pair.from }))}
        {field('max', fill(s.fields.max, { asset: pair.from }))}
        {field('feePercent', s.fields.feePercent)}
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="enabled"
          checked={draft.enabled}
          onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))}
        />
        {s.fields.enabled}
      </label>
      <SubmitRow
        failure={save.isError ? failureMessage(save.error, text.error.generic) : ''}
        busy={save.isPending}
        label={s.save}
      >
        <button type="button" onClick={() => onDone('')}>
          {s.cancel}
        </button>
      </SubmitRow>
    </form>
  );
}

/**
 * Swap pairs (/admin/swap/pairs): every pair's limits, fee rate and switch, with who changed it
 * last. Admins change a pair (new quotes use it at once; audited); finance reads.
 */
export function SwapPairs() {
  const { text, language, staff } = useBackOffice();
  const s = text.swap;
  const headingId = useId();
  const mayEdit = allowed(staff, adminCalls.updateSwapPair);
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const query = useQuery({
    queryKey: keys.swapPairs(language),
    queryFn: () => callAdmin('listSwapPairs'),
  });
  const columns: Column<SwapPairAdmin>[] = [
    { key: 'from', header: s.from, cell: (p) => p.from, sortValue: (p) => p.from },
    { key: 'to', header: s.to, cell: (p) => p.to, sortValue: (p) => p.to },
    { key: 'min', header: s.min, cell: (p) => <Amount value={`${plain(p.min)} ${p.from}`} /> },
    { key: 'max', header: s.max, cell: (p) => <Amount value={`${plain(p.max)} ${p.from}`} /> },
    {
      key: 'fee',
      header: s.feeRate,
      cell: (p) => <Amount value={`${ratioToPercent(p.feeRate)} %`} />,
      sortValue: (p) => Number(p.feeRate),
    },
    {
      key: 'enabled',
      header: s.fields.enabled,
      cell: (p) => (p.enabled ? s.on : <strong>{s.off}</strong>),
      sortValue: (p) => (p.enabled ? 1 : 0),
    },
    timeColumn('updatedAt', s.updatedAt, language, (p) => p.updatedAt),
    {
      key: 'updatedBy',
      header: s.updatedBy,
      cell: (p) => p.updatedBy ?? s.seeded,
      sortValue: (p) => p.updatedBy ?? '',
    },
  ];
  if (mayEdit)
    columns.push({
      key: 'edit',
      header: s.edit,
      hiddenHeader: true,
      cell: (p) => (
        <button
          type="button"
          aria-label={fill(s.editHeading, { pair: pairName(p) })}
          onClick={() => {
            setDone('');
            setEditing(pairKey(p));
          }}
        >
          {s.edit}
        </button>
      ),
    });
  const pair = query.data?.find((p) => pairKey(p) === editing);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {s.heading}
      </h2>
      <p className="muted">{s.intro}</p>
      {mayEdit ? null : <p className="muted">{s.readOnly}</p>}
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      <DataTable
        caption={s.heading}
        columns={columns}
        rows={query.data}
        rowKey={pairKey}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={s.empty}
        filterText={(p) => `${p.from} ${p.to} ${p.updatedBy ?? ''}`}
        testId="swap-pairs"
      />
      {pair && mayEdit ? (
        <EditPair
          key={editing}
          pair={pair}
          onDone={(message) => {
            setEditing(null);
            setDone(message);
          }}
        />
      ) : null}
    </section>
  );
}

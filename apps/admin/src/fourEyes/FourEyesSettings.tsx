import type { Language } from '@swx/contract';
import {
  ASSET_SCALES,
  type Asset,
  type FourEyesKind,
  type FourEyesProposal,
  type FourEyesThreshold,
  fourEyesProposeBody,
  MoneyFormatError,
  parseMinor,
} from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { shownAmount } from '../amount.ts';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, Money, plain, useQueryState } from '../DataTable.tsx';
import { Done, Field, SubmitRow } from '../Field.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { FOUR_EYES_TEXT, type FourEyesText } from './fourEyes.text.ts';
import { Proposals } from './Proposals.tsx';

const keyOf = (t: { kind: FourEyesKind; asset: Asset }) => `${t.kind}.${t.asset}`;

/** A typed threshold the server will take: positive, at most the asset's decimals. */
function validAmount(asset: Asset, value: string): boolean {
  if (!fourEyesProposeBody.safeParse({ kind: 'loan', asset, value }).success) return false;
  try {
    return parseMinor(value.trim(), ASSET_SCALES[asset]) > 0n;
  } catch (error) {
    if (error instanceof MoneyFormatError) return false;
    throw error;
  }
}

/** The form of one threshold's change: a new amount, or none. */
function ProposeForm({
  threshold,
  f,
  onDone,
}: {
  threshold: FourEyesThreshold;
  f: FourEyesText;
  onDone: (message: string) => void;
}) {
  const { text } = useBackOffice();
  const client = useQueryClient();
  const headingId = useId();
  const [value, setValue] = useState(threshold.value ? plain(threshold.value) : '');
  const [none, setNone] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const propose = useMutation({
    mutationFn: (body: { kind: FourEyesKind; asset: Asset; value: string | null }) =>
      callAdmin('proposeFourEyes', { body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.fourEyes });
      onDone(f.proposed);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!none && !validAmount(threshold.asset, value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    propose.mutate({ kind: threshold.kind, asset: threshold.asset, value: none ? null : value.trim() });
  };
  return (
    <form className="panel" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId}>
        {fill(f.proposeHeading, { kind: f.kinds[threshold.kind], asset: threshold.asset })}
      </h3>
      <Field
        label={fill(f.value, { asset: threshold.asset })}
        hint={f.valueHint}
        name="value"
        dir="ltr"
        inputMode="decimal"
        value={value}
        disabled={none}
        error={invalid ? f.checkValue : undefined}
        onChange={(e) => setValue(e.target.value)}
      />
      <label className="check">
        <input type="checkbox" name="none" checked={none} onChange={(e) => setNone(e.target.checked)} />
        {f.remove}
      </label>
      <SubmitRow
        failure={propose.isError ? failureMessage(propose.error, text.error.generic) : ''}
        busy={propose.isPending}
        label={f.submit}
      >
        <button type="button" onClick={() => onDone('')}>
          {f.cancel}
        </button>
      </SubmitRow>
    </form>
  );
}

/** A threshold or nothing set, in the asset. */
const amountOf = (f: FourEyesText, asset: Asset, value: string | null) =>
  value === null ? f.none : <Money value={value} asset={asset} />;

/** A proposal's own columns: which threshold, from what to what. */
function proposalColumns(f: FourEyesText): Column<FourEyesProposal>[] {
  return [
    { key: 'kind', header: f.kind, cell: (p) => f.kinds[p.kind] },
    { key: 'asset', header: f.asset, cell: (p) => p.asset },
    { key: 'before', header: f.from, cell: (p) => amountOf(f, p.asset, p.before) },
    { key: 'value', header: f.to, cell: (p) => amountOf(f, p.asset, p.value) },
  ];
}

/** The thresholds' columns: the change waiting for each, else a button to propose one. */
function thresholdColumns(
  f: FourEyesText,
  language: Language,
  waiting: Map<string, FourEyesProposal>,
  onPropose: (threshold: FourEyesThreshold) => void,
): Column<FourEyesThreshold>[] {
  return [
    { key: 'kind', header: f.kind, cell: (t) => f.kinds[t.kind], sortValue: (t) => f.kinds[t.kind] },
    { key: 'asset', header: f.asset, cell: (t) => t.asset, sortValue: (t) => t.asset },
    { key: 'value', header: f.threshold, cell: (t) => amountOf(f, t.asset, t.value) },
    {
      key: 'waiting',
      header: f.waiting,
      cell: (t) => {
        const p = waiting.get(keyOf(t));
        return p
          ? fill(f.waitingValue, {
              value: p.value === null ? f.noneShort : shownAmount(language, p.value, t.asset),
              who: p.proposedBy.email,
            })
          : '';
      },
    },
    {
      key: 'edit',
      header: f.propose,
      hiddenHeader: true,
      cell: (t) =>
        waiting.has(keyOf(t)) ? null : (
          <button
            type="button"
            aria-label={`${f.propose}: ${fill(f.proposeHeading, { kind: f.kinds[t.kind], asset: t.asset })}`}
            onClick={() => onPropose(t)}
          >
            {f.propose}
          </button>
        ),
    },
  ];
}

/**
 * Four-eyes thresholds (/admin/settings/four-eyes, admins): above its threshold a review needs two
 * approvers. One admin proposes a change (or none), another approves it; the proposer may withdraw
 * it but not approve it. Every step is audited.
 */
export function FourEyesSettings() {
  const { language } = useBackOffice();
  const f = FOUR_EYES_TEXT[language];
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const query = useQuery({
    queryKey: keys.fourEyesSettings(language),
    queryFn: () => callAdmin('getFourEyes'),
  });
  const { loading, failure, onRetry } = useQueryState(query);
  const waiting = new Map((query.data?.pending ?? []).map((p) => [keyOf(p), p]));
  const threshold = query.data?.thresholds.find((t) => keyOf(t) === editing);
  return (
    <Screen heading={f.heading}>
      <p className="muted">{f.intro}</p>
      <Done message={done} />
      <Proposals
        words={f}
        testId="four-eyes"
        columns={proposalColumns(f)}
        pending={query.data?.pending}
        recent={query.data?.recent}
        loading={loading}
        failure={failure}
        onRetry={onRetry}
        decide={(id, decision) =>
          decision === 'approve'
            ? callAdmin('approveFourEyes', { params: { id } })
            : callAdmin('rejectFourEyes', { params: { id } })
        }
        invalidate={keys.fourEyes}
        onDone={setDone}
      >
        {threshold ? (
          <ProposeForm
            key={editing}
            threshold={threshold}
            f={f}
            onDone={(message) => {
              setEditing(null);
              setDone(message);
            }}
          />
        ) : null}
        <DataTable
          caption={f.heading}
          testId="four-eyes-thresholds"
          columns={thresholdColumns(f, language, waiting, (t) => {
            setDone('');
            setEditing(keyOf(t));
          })}
          rows={query.data?.thresholds}
          rowKey={keyOf}
          loading={loading}
          failure={failure}
          onRetry={onRetry}
          empty={f.none}
          filterText={(t) => `${f.kinds[t.kind]} ${t.asset}`}
        />
      </Proposals>
    </Screen>
  );
}

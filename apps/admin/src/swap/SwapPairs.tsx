import { adminCalls, type SwapPairAdmin, swapPairUpdateBody } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column, Money, plain, timeColumn } from '../DataTable.tsx';
import { SettingsForm, SettingsTable } from '../KitSettingsTable.tsx';
import { keys } from '../query.ts';
import { percentToRatio, ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { useSwapText } from './swap.text.ts';

/** A pair's name, as its row key, its URL-free id and its heading: "BTC → USDT". */
const pairName = (p: { from: string; to: string }) => `${p.from} → ${p.to}`;
const pairKey = (p: { from: string; to: string }) => `${p.from}-${p.to}`;

type Draft = { min: string; max: string; feePercent: string; enabled: boolean };

const draftOf = (p: SwapPairAdmin): Draft => ({
  min: plain(p.min),
  max: plain(p.max),
  feePercent: ratioToPercent(p.feeRate),
  enabled: p.enabled,
});

/** One pair's form: limits (in the `from` asset), the fee rate (typed in per cent) and the switch. */
function EditPair({ pair, onDone }: { pair: SwapPairAdmin; onDone: (message: string) => void }) {
  const s = useSwapText();
  return (
    <SettingsForm
      testId="swap-pair-form"
      heading={fill(s.editHeading, { pair: pairName(pair) })}
      intro={s.editIntro}
      fields={[
        { name: 'min', kind: 'amount', label: fill(s.fields.min, { asset: pair.from }) },
        { name: 'max', kind: 'amount', label: fill(s.fields.max, { asset: pair.from }) },
        { name: 'feePercent', kind: 'rate', label: s.fields.feePercent },
      ]}
      toggle={{ name: 'enabled', kind: 'toggle', label: s.fields.enabled }}
      texts={s}
      initial={() => draftOf(pair)}
      body={(d: Draft) => ({
        from: pair.from,
        to: pair.to,
        min: d.min.trim(),
        max: d.max.trim(),
        feeRate: percentToRatio(d.feePercent) ?? '',
        enabled: d.enabled,
      })}
      schema={swapPairUpdateBody}
      fieldOf={(name) => (name === 'feeRate' ? 'feePercent' : name)}
      save={(body) => callAdmin('updateSwapPair', { body })}
      invalidate={keys.swap}
      saved={(saved) => fill(s.saved, { pair: pairName(saved) })}
      onDone={onDone}
    />
  );
}

/**
 * Swap pairs (/admin/swap/pairs): every pair's limits, fee rate and switch, with who changed it
 * last. Admins change a pair (new quotes use it at once; audited); finance reads.
 */
export function SwapPairs() {
  const { language, staff } = useBackOffice();
  const s = useSwapText();
  const query = useQuery({
    queryKey: keys.swapPairs(language),
    queryFn: () => callAdmin('listSwapPairs'),
  });
  const columns: Column<SwapPairAdmin>[] = [
    { key: 'from', header: s.from, cell: (p) => p.from, sortValue: (p) => p.from },
    { key: 'to', header: s.to, cell: (p) => p.to, sortValue: (p) => p.to },
    { key: 'min', header: s.min, cell: (p) => <Money value={p.min} asset={p.from} /> },
    { key: 'max', header: s.max, cell: (p) => <Money value={p.max} asset={p.from} /> },
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
  return (
    <SettingsTable
      t={s}
      mayEdit={allowed(staff, adminCalls.updateSwapPair)}
      query={query}
      columns={columns}
      rowKey={pairKey}
      filterText={(p) => `${p.from} ${p.to} ${p.updatedBy ?? ''}`}
      testId="swap-pairs"
      editLabel={(p) => fill(s.editHeading, { pair: pairName(p) })}
      form={(pair, onDone) => <EditPair pair={pair} onDone={onDone} />}
    />
  );
}

import { adminCalls, type Network, networkUpdateBody } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Amount, type Column, Money, MoneyRange, plain } from '../DataTable.tsx';
import type { FieldSpec } from '../KitFields.tsx';
import { SettingsForm, SettingsTable } from '../KitSettingsTable.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { useWalletText, type WalletText } from './wallet.text.ts';

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

/** One network's form: limits, depths, block time, fee rate, arrival time and the switch. */
function EditNetwork({ network, onDone }: { network: Network; onDone: (message: string) => void }) {
  const w = useWalletText();
  const field = (name: FieldName, numeric: boolean): FieldSpec<Draft> => ({
    name,
    kind: 'text',
    label: w.fields[name],
    dir: 'ltr',
    inputMode: numeric ? 'numeric' : name === 'name' ? undefined : 'decimal',
  });
  return (
    <SettingsForm
      heading={fill(w.editHeading, { id: network.id })}
      fields={[
        ...TEXT_FIELDS.map((name) => field(name, false)),
        ...INT_FIELDS.map((name) => field(name, true)),
      ]}
      toggle={{ name: 'enabled', kind: 'toggle', label: w.fields.enabled }}
      texts={w}
      initial={() => draftOf(network)}
      body={(d) => bodyOf(network.id, d)}
      schema={networkUpdateBody}
      save={(body) => callAdmin('updateNetwork', { body })}
      invalidate={keys.networks}
      saved={(saved) => fill(w.networkSaved, { id: saved.id })}
      onDone={onDone}
    />
  );
}

/** A network's id and name, deposit minimum, depths, fee rate, withdrawal range, arrival time and switch. */
function networkColumns(w: WalletText): Column<Network>[] {
  return [
    { key: 'id', header: w.networkId, cell: (n) => n.id, sortValue: (n) => n.id },
    { key: 'name', header: w.fields.name, cell: (n) => n.name, sortValue: (n) => n.name },
    {
      key: 'deposit',
      header: w.fields.depositMinimum,
      cell: (n) => <Money value={n.depositMinimum} asset={n.asset} />,
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
      cell: (n) => <MoneyRange min={n.withdrawalMinimum} max={n.withdrawalMaximum} asset={n.asset} />,
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
}

/** Networks (/admin/networks): every network's terms, and a form to change one (audited). */
export function Networks() {
  const { language, staff } = useBackOffice();
  // Fees, confirmations, minimums and limits are customer terms: admins change them (roles.ts).
  const mayEdit = allowed(staff, adminCalls.updateNetwork);
  const w = useWalletText();
  const query = useQuery({
    queryKey: keys.networkList(language),
    queryFn: () => callAdmin('listNetworksAdmin'),
  });
  return (
    <SettingsTable
      t={{
        heading: w.networksHeading,
        intro: w.networksIntro,
        readOnly: w.networksReadOnly,
        empty: w.networksEmpty,
        edit: w.edit,
      }}
      mayEdit={mayEdit}
      query={query}
      columns={networkColumns(w)}
      rowKey={(n) => n.id}
      filterText={(n) => `${n.id} ${n.name}`}
      testId="networks-table"
      editLabel={(n) => fill(w.editHeading, { id: n.id })}
      form={(network, onDone) => <EditNetwork network={network} onDone={onDone} />}
    />
  );
}

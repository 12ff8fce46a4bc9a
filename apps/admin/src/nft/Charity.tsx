import { adminCalls, NFT_ASSETS, type NftCharityAccount, type NftPayout } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { allowed, callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, Money, useQueryState } from '../DataTable.tsx';
import { Alert, Field, SelectField, SubmitRow } from '../Field.tsx';
import { KitSection } from '../KitScreen.tsx';
import { fill, formatTime } from '../text.ts';
import { issuesOf } from '../useDraftForm.ts';
import { nftKeys } from './keys.ts';
import { NftScreen } from './NftScreen.tsx';
import { type NftText, useNftText } from './nft.text.ts';

/** Add a charity with its own address (payouts go there). */
function AddCharity({ t }: { t: NftText }) {
  const { text } = useBackOffice();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const add = useMutation({
    mutationFn: () => callAdmin('addNftCharity', { body: { name: name.trim(), address: address.trim() } }),
    onSuccess: () => {
      setName('');
      setAddress('');
      void client.invalidateQueries({ queryKey: nftKeys.all });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  // A mixed-case address whose EIP-55 checksum does not hold is worded on the address itself.
  const mistyped =
    add.error instanceof StaffApiError &&
    issuesOf(add.error.data).some((i) => i.name === 'address' && i.issue === 'checksum');
  const form = useRef<HTMLFormElement>(null);
  // The field to fix takes the focus, so its error (described by it) is read out.
  useEffect(() => {
    if (mistyped) (form.current?.elements.namedItem('address') as HTMLInputElement | null)?.focus();
  }, [mistyped]);
  return (
    <form ref={form} className="nft-form" onSubmit={submit} noValidate data-testid="nft-add-charity">
      <Field
        label={t.charity.name}
        required
        maxLength={120}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Field
        label={t.charity.address}
        hint={t.charity.addressHint}
        error={mistyped ? t.charity.addressChecksum : undefined}
        name="address"
        dir="ltr"
        required
        value={address}
        onChange={(e) => setAddress(e.target.value)}
      />
      <SubmitRow
        failure={add.isError && !mistyped ? failureMessage(add.error, text.error.generic) : ''}
        busy={add.isPending}
        label={t.charity.add}
      />
    </form>
  );
}

/**
 * Propose a payout of the live charity account to a charity's address: another staff member
 * decides. Only the assets the hot wallet sends on the chain are offered (the others are named,
 * and the server refuses them too: 10068).
 */
function ProposePayout({
  t,
  charities,
  sendable,
}: {
  t: NftText;
  charities: { id: string; name: string }[];
  sendable: NftCharityAccount['payoutAssets'];
}) {
  const { text } = useBackOffice();
  const client = useQueryClient();
  const [charityId, setCharityId] = useState('');
  const [picked, setAsset] = useState<(typeof NFT_ASSETS)[number] | null>(null);
  const asset = picked ?? sendable[0] ?? 'USDT';
  const unsendable = NFT_ASSETS.filter((a) => !sendable.includes(a));
  const notSent = unsendable.length > 0 ? fill(t.payouts.unsendable, { assets: unsendable.join(', ') }) : '';
  const [amount, setAmount] = useState('');
  const propose = useMutation({
    mutationFn: () => callAdmin('proposeNftPayout', { body: { charityId, asset, amount: amount.trim() } }),
    onSuccess: () => {
      setAmount('');
      void client.invalidateQueries({ queryKey: nftKeys.all });
    },
  });
  return (
    <form
      className="nft-form"
      onSubmit={(e) => {
        e.preventDefault();
        propose.mutate();
      }}
      noValidate
      data-testid="nft-propose-payout"
    >
      <SelectField
        label={t.charity.name}
        value={charityId}
        onChange={(e) => setCharityId(e.target.value)}
        options={[
          { value: '', label: t.create.choose },
          ...charities.map((c) => ({ value: String(c.id), label: c.name })),
        ]}
      />
      <SelectField
        label={t.create.asset}
        value={asset}
        onChange={(e) => setAsset(e.target.value as typeof asset)}
        options={sendable.map((a) => ({ value: a, label: a }))}
        hint={notSent || undefined}
      />
      <Field
        label={t.payouts.amount}
        inputMode="decimal"
        required
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
      />
      <SubmitRow
        failure={propose.isError ? failureMessage(propose.error, text.error.generic) : ''}
        busy={propose.isPending || charityId === '' || sendable.length === 0}
        label={t.payouts.propose}
      />
    </form>
  );
}

/** Approve or reject a proposed payout: never by the one who proposed it (four eyes; the server refuses it too). */
function Decide({ payout, t }: { payout: NftPayout; t: NftText }) {
  const { staff, text } = useBackOffice();
  const client = useQueryClient();
  const decide = useMutation({
    mutationFn: (approve: boolean) =>
      callAdmin('decideNftPayout', { body: { payoutId: String(payout.id), approve } }),
    onSettled: () => void client.invalidateQueries({ queryKey: nftKeys.all }),
  });
  if (payout.state !== 'proposed') return null;
  if (staff?.email === payout.proposedBy) return <span className="muted">{t.payouts.ownProposal}</span>;
  return (
    <>
      <button
        type="button"
        onClick={() => decide.mutate(true)}
        disabled={decide.isPending}
        aria-label={fill(t.payouts.approveNamed, { id: payout.id })}
      >
        {t.payouts.approve}
      </button>{' '}
      <button
        type="button"
        className="danger"
        onClick={() => decide.mutate(false)}
        disabled={decide.isPending}
        aria-label={fill(t.payouts.rejectNamed, { id: payout.id })}
      >
        {t.payouts.reject}
      </button>
      <Alert message={decide.isError ? failureMessage(decide.error, text.error.generic) : ''} />
    </>
  );
}

/** A payout's state, and why it failed on the chain or was rejected (the staff member's words), or is stuck. */
function PayoutState({ payout, t }: { payout: NftPayout; t: NftText }) {
  const reasons: Record<string, string> = t.payouts.reasons;
  const why =
    payout.state === 'stuck'
      ? t.payouts.stuckHelp
      : payout.reason === null
        ? null
        : (reasons[payout.reason] ?? payout.reason);
  return (
    <span data-state={payout.state}>
      {t.payouts.states[payout.state]}
      {why ? <span className="muted"> — {why}</span> : null}
    </span>
  );
}

function payoutColumns(
  t: NftText,
  language: Parameters<typeof formatTime>[0],
  canDecide: boolean,
): Column<NftPayout>[] {
  return [
    {
      key: 'id',
      header: t.payouts.id,
      cell: (p) => <span dir="ltr">#{p.id}</span>,
      sortValue: (p) => Number(p.id),
    },
    { key: 'charity', header: t.charity.name, cell: (p) => p.charityName },
    { key: 'amount', header: t.payouts.amount, cell: (p) => <Money value={p.amount} asset={p.asset} /> },
    {
      key: 'state',
      header: t.payouts.state,
      cell: (p) => <PayoutState payout={p} t={t} />,
      sortValue: (p) => p.state,
    },
    {
      key: 'who',
      header: t.payouts.who,
      cell: (p) => (p.decidedBy ? `${p.proposedBy} → ${p.decidedBy}` : p.proposedBy),
    },
    {
      key: 'tx',
      header: t.payouts.tx,
      cell: (p) =>
        p.txHash ? (
          <span className="nft-hex" dir="ltr">
            {p.txHash}
          </span>
        ) : (
          '—'
        ),
    },
    {
      key: 'leaf',
      header: t.payouts.leaf,
      cell: (p) => (p.logIndex === null ? '—' : <span dir="ltr">#{p.logIndex}</span>),
    },
    {
      key: 'at',
      header: t.payouts.at,
      cell: (p) => formatTime(language, p.createdAt),
      sortValue: (p) => p.createdAt,
    },
    ...(canDecide
      ? [
          {
            key: 'decide',
            header: t.payouts.decide,
            hiddenHeader: true,
            cell: (p: NftPayout) => <Decide payout={p} t={t} />,
          },
        ]
      : []),
  ];
}

type AccountState = ReturnType<typeof useQueryState>;
type Account = NftCharityAccount | undefined;

/** The charities with their own addresses, and (for makers) the form that adds one. */
function Charities({ account, state, t }: { account: Account; state: AccountState; t: NftText }) {
  const { staff } = useBackOffice();
  return (
    <KitSection id="nft-charities" heading={t.charity.charities}>
      <DataTable
        caption={t.charity.charities}
        columns={[
          { key: 'name', header: t.charity.name, cell: (c) => c.name, sortValue: (c) => c.name },
          {
            key: 'address',
            header: t.charity.address,
            cell: (c) => (
              <span className="nft-hex" dir="ltr">
                {c.address}
              </span>
            ),
          },
        ]}
        rows={account?.charities}
        rowKey={(c) => c.id}
        {...state}
        empty={t.charity.none}
      />
      {allowed(staff, adminCalls.addNftCharity) ? <AddCharity t={t} /> : null}
    </KitSection>
  );
}

/** What the charity account holds per book and asset, and what the log says was given and paid out. */
function Balances({ account, state, t }: { account: Account; state: AccountState; t: NftText }) {
  return (
    <KitSection id="nft-balances" heading={t.charity.account}>
      <DataTable
        caption={t.charity.account}
        columns={[
          { key: 'book', header: t.drops.book, cell: (b) => t.book[b.book] },
          {
            key: 'balance',
            header: t.charity.balance,
            cell: (b) => <Money value={b.balance} asset={b.asset} />,
          },
        ]}
        rows={account?.balances}
        rowKey={(b) => `${b.book}-${b.asset}`}
        {...state}
        empty={t.charity.noBalance}
      />
      <DataTable
        caption={t.charity.donated}
        columns={[
          { key: 'given', header: t.charity.given, cell: (d) => <Money value={d.given} asset={d.asset} /> },
          {
            key: 'paidOut',
            header: t.charity.paidOut,
            cell: (d) => <Money value={d.paidOut} asset={d.asset} />,
          },
        ]}
        rows={account?.donated}
        rowKey={(d) => d.asset}
        {...state}
        empty={t.charity.noDonation}
      />
    </KitSection>
  );
}

const inFlight = (payouts: NftPayout[] | undefined) =>
  payouts?.some((p) => p.state === 'approved' || p.state === 'sending' || p.state === 'stuck') ?? false;

/** /admin/nft/charity: the charities, the charity account and what the log says, and its payouts (four eyes). */
export function Charity() {
  const { language, staff } = useBackOffice();
  const t = useNftText();
  const payouts = useQuery({
    queryKey: nftKeys.payouts(language),
    queryFn: () => callAdmin('listNftPayouts'),
    // While a payout is on its way (approved, sending, stuck), its state and transaction are read again.
    refetchInterval: (query) => (inFlight(query.state.data) ? 5_000 : false),
  });
  // The account and the log's sums move when a payout is sent or fails: read again meanwhile.
  const moving = inFlight(payouts.data);
  const account = useQuery({
    queryKey: nftKeys.charity(language),
    queryFn: () => callAdmin('listNftCharities'),
    refetchInterval: moving ? 5_000 : false,
  });
  const settled = payouts.data?.filter((p) => p.state === 'sent' || p.state === 'failed').length ?? 0;
  const refetchAccount = account.refetch;
  useEffect(() => {
    if (settled > 0) void refetchAccount();
  }, [settled, refetchAccount]);
  const accountState = useQueryState(account);
  const payoutState = useQueryState(payouts);
  const charities = account.data?.charities ?? [];
  return (
    <NftScreen heading={t.charity.heading}>
      <p className="muted">{t.charity.intro}</p>
      <Charities account={account.data} state={accountState} t={t} />
      <Balances account={account.data} state={accountState} t={t} />
      <KitSection id="nft-payouts" heading={t.payouts.heading}>
        <p className="muted">{t.payouts.intro}</p>
        {allowed(staff, adminCalls.proposeNftPayout) && charities.length > 0 ? (
          <ProposePayout t={t} charities={charities} sendable={account.data?.payoutAssets ?? []} />
        ) : null}
        <DataTable
          caption={t.payouts.heading}
          columns={payoutColumns(t, language, allowed(staff, adminCalls.decideNftPayout))}
          rows={payouts.data}
          rowKey={(p) => p.id}
          {...payoutState}
          empty={t.payouts.empty}
          testId="nft-payouts"
        />
      </KitSection>
    </NftScreen>
  );
}

import { adminCalls, type Language, type NftDropAdmin } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, Money, useQueryState } from '../DataTable.tsx';
import { Alert, Done } from '../Field.tsx';
import { fill, formatTime } from '../text.ts';
import { nftKeys } from './keys.ts';
import { NftScreen } from './NftScreen.tsx';
import { type NftText, useNftText } from './nft.text.ts';

/** A drop's token on the chain: contract and token id, or that it is not minted. */
export function Token({ drop, t }: { drop: Pick<NftDropAdmin, 'contractAddress' | 'tokenId'>; t: NftText }) {
  if (!drop.contractAddress || !drop.tokenId) return <span className="muted">{t.drops.notMinted}</span>;
  return (
    <span className="nft-hex" dir="ltr">
      {drop.contractAddress} #{drop.tokenId}
    </span>
  );
}

/** The columns every drop table shares: name, book, sale, state, price or bid, end. */
export function dropColumns(t: NftText, language: Language): Column<NftDropAdmin>[] {
  return [
    {
      key: 'id',
      header: t.drops.id,
      cell: (d) => <span dir="ltr">#{d.id}</span>,
      sortValue: (d) => Number(d.id),
    },
    { key: 'name', header: t.drops.name, cell: (d) => `${d.name} · ${d.creator}`, sortValue: (d) => d.name },
    { key: 'book', header: t.drops.book, cell: (d) => t.book[d.book], sortValue: (d) => d.book },
    { key: 'sale', header: t.drops.sale, cell: (d) => t.saleType[d.rules.saleType] },
    { key: 'state', header: t.drops.state, cell: (d) => t.state[d.state], sortValue: (d) => d.state },
    {
      key: 'bid',
      header: t.drops.bid,
      cell: (d) => (
        <>
          <Money value={d.currentBid ?? d.rules.startPrice} asset={d.asset} />{' '}
          <span className="muted">{fill(t.drops.bids, { count: d.bidCount })}</span>
        </>
      ),
    },
    {
      key: 'reserve',
      header: t.drops.reserve,
      cell: (d) =>
        d.rules.reserve === null
          ? t.drops.noReserve
          : d.reserveMet
            ? t.drops.reserveMet
            : t.drops.reserveNotMet,
    },
    {
      key: 'ends',
      header: t.drops.ends,
      cell: (d) => (d.endsAt ? formatTime(language, d.endsAt) : '—'),
      sortValue: (d) => d.endsAt ?? '',
    },
    { key: 'token', header: t.drops.token, cell: (d) => <Token drop={d} t={t} /> },
  ];
}

/** Mint a draft: its token on the chain, its sale opened at its start. */
function MintButton({ drop, onMinted }: { drop: NftDropAdmin; onMinted: (message: string) => void }) {
  const t = useNftText();
  const { text } = useBackOffice();
  const client = useQueryClient();
  const [failure, setFailure] = useState('');
  const mint = useMutation({
    mutationFn: () => callAdmin('mintNftDrop', { body: { dropId: String(drop.id) } }),
    onSuccess: (minted) => {
      onMinted(fill(t.drops.minted, { name: minted.name, token: minted.tokenId ?? '' }));
      void client.invalidateQueries({ queryKey: nftKeys.all });
    },
    onError: (error) => setFailure(failureMessage(error, text.error.generic)),
  });
  return (
    <>
      <button
        type="button"
        onClick={() => mint.mutate()}
        disabled={mint.isPending}
        aria-label={fill(t.drops.mintNamed, { name: drop.name })}
      >
        {mint.isPending ? text.loading : t.drops.mint}
      </button>
      <Alert message={failure} />
    </>
  );
}

/** /admin/nft: every drop, newest first, with its sale, state and token; a draft is minted here. */
export function Drops() {
  const { language, staff } = useBackOffice();
  const t = useNftText();
  const [done, setDone] = useState('');
  const query = useQuery({ queryKey: nftKeys.drops(language), queryFn: () => callAdmin('listNftDrops') });
  const state = useQueryState(query);
  const canMint = allowed(staff, adminCalls.mintNftDrop);
  const columns: Column<NftDropAdmin>[] = [
    ...dropColumns(t, language),
    {
      key: 'action',
      header: t.drops.action,
      hiddenHeader: true,
      cell: (d) => (d.state === 'draft' && canMint ? <MintButton drop={d} onMinted={setDone} /> : null),
    },
  ];
  return (
    <NftScreen heading={t.drops.heading}>
      <p className="muted">{t.drops.intro}</p>
      {allowed(staff, adminCalls.createNftDrop) ? (
        <p>
          <Link to="/nft/new">{t.drops.create}</Link>
        </p>
      ) : null}
      <Done message={done} />
      <DataTable
        caption={t.drops.heading}
        columns={columns}
        rows={query.data}
        rowKey={(d) => d.id}
        {...state}
        empty={t.drops.empty}
        filterText={(d) => `${d.id} ${d.name} ${d.creator} ${d.state}`}
        testId="nft-drops"
      />
    </NftScreen>
  );
}

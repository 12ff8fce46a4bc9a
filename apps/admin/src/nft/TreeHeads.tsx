import type { NftTreeHead } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, useQueryState } from '../DataTable.tsx';
import { formatTime } from '../text.ts';
import { nftKeys } from './keys.ts';
import { NftScreen } from './NftScreen.tsx';
import { useNftText } from './nft.text.ts';

const hex = (value: string) => (
  <span className="nft-hex" dir="ltr">
    {value}
  </span>
);

/** /admin/nft/log: the donation log's published tree heads, newest first (what anyone checks in /nfts/log). */
export function TreeHeads() {
  const { language } = useBackOffice();
  const t = useNftText();
  const query = useQuery({ queryKey: nftKeys.heads(language), queryFn: () => callAdmin('listNftTreeHeads') });
  const state = useQueryState(query);
  const columns: Column<NftTreeHead>[] = [
    { key: 'size', header: t.log.size, cell: (h) => h.treeSize, sortValue: (h) => h.treeSize },
    {
      key: 'time',
      header: t.log.time,
      cell: (h) => formatTime(language, new Date(h.timestamp).toISOString()),
      sortValue: (h) => h.timestamp,
    },
    { key: 'root', header: t.log.root, cell: (h) => hex(h.rootHash) },
    { key: 'key', header: t.log.key, cell: (h) => hex(`${h.keyId} ${h.publicKey}`) },
    { key: 'signature', header: t.log.signature, cell: (h) => hex(h.signature) },
  ];
  return (
    <NftScreen heading={t.log.heading}>
      <p className="muted">{t.log.intro}</p>
      <DataTable
        caption={t.log.heading}
        columns={columns}
        rows={query.data}
        rowKey={(h) => `${h.treeSize}-${h.timestamp}`}
        {...state}
        empty={t.log.empty}
        testId="nft-heads"
      />
    </NftScreen>
  );
}

import { useQuery } from '@tanstack/react-query';
import { callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { DataTable, useQueryState } from '../DataTable.tsx';
import { dropColumns } from './Drops.tsx';
import { nftKeys } from './keys.ts';
import { NftScreen } from './NftScreen.tsx';
import { useNftText } from './nft.text.ts';

/** /admin/nft/auctions: auctions live or waiting for settlement, soonest end first. */
export function Auctions() {
  const { language } = useBackOffice();
  const t = useNftText();
  const query = useQuery({
    queryKey: nftKeys.auctions(language),
    queryFn: () => callAdmin('listNftAuctions'),
    refetchInterval: 15_000,
  });
  const state = useQueryState(query);
  return (
    <NftScreen heading={t.auctions.heading}>
      <p className="muted">{t.auctions.intro}</p>
      <DataTable
        caption={t.auctions.heading}
        columns={dropColumns(t, language)}
        rows={query.data}
        rowKey={(d) => d.id}
        {...state}
        empty={t.auctions.empty}
        filterText={(d) => `${d.id} ${d.name} ${d.creator}`}
        testId="nft-auctions"
      />
    </NftScreen>
  );
}

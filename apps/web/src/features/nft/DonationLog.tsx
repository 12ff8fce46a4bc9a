import {
  ASSET_SCALES,
  type Asset,
  formatMinor,
  type NftLogLeaf,
  type NftTreeHead,
  verifyTreeHead,
} from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, use, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ScrollTable } from '../../ui/product/Facts.tsx';
import { ConsistencyCheck, InclusionCheck } from './LogChecks.tsx';
import { pinnedKey } from './logCheck.ts';
import { Hex, NftNav, useNftFormat } from './parts.tsx';
import { nftQueries } from './queries.ts';
import { nftTexts } from './texts.ts';
import './nft.css';

/** A minor-unit amount of the log as a decimal of its asset. */
export const leafAmount = (leaf: Pick<NftLogLeaf, 'amount' | 'asset'>) =>
  formatMinor(BigInt(leaf.amount), ASSET_SCALES[leaf.asset as Asset] ?? 6);

/** The signed heads, newest first, each signature checked here with the log's one key. */
function Heads({ heads, keyHex }: { heads: NftTreeHead[]; keyHex: string | null }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  return (
    <ScrollTable
      label={t('nft.logPage.heads')}
      testId="nft-heads"
      cards
      head={[
        { text: t('nft.logPage.size'), num: true },
        { text: t('nft.logPage.time') },
        { text: t('nft.logPage.root') },
        { text: t('nft.logPage.signature') },
      ]}
    >
      {heads.map((h) => {
        const ok = keyHex !== null && verifyTreeHead(h, keyHex);
        return (
          <tr key={`${h.treeSize}-${h.timestamp}`} data-size={h.treeSize}>
            <td>{f.count(h.treeSize)}</td>
            <td>{f.date(new Date(h.timestamp).toISOString())}</td>
            <td>
              <Hex value={h.rootHash} />
            </td>
            <td className={ok ? 'nft-good' : 'nft-bad'}>
              <span aria-hidden="true">{ok ? '✓ ' : '✕ '}</span>
              {ok ? t('nft.logPage.signed') : t('nft.logPage.bad.signature')}
            </td>
          </tr>
        );
      })}
    </ScrollTable>
  );
}

/** The filter of the leaves by drop: a drop's number puts `?drop=` in the page's address (a link). */
function DropFilter({ drop }: { drop: number | null }) {
  const { t } = useTranslation();
  const [, setSearch] = useSearchParams();
  const field = useId();
  const [typed, setTyped] = useState(drop === null ? '' : String(drop));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(typed.trim());
    setSearch(Number.isSafeInteger(value) && value > 0 ? { drop: String(value) } : {});
  };
  return (
    <form className="nft-check-form" onSubmit={apply} data-testid="nft-leaves-filter">
      <div className="field">
        <label htmlFor={field}>{t('nft.logPage.dropFilter')}</label>
        <input
          id={field}
          inputMode="numeric"
          pattern="[0-9]*"
          value={typed}
          onChange={(e) => setTyped(e.target.value.replace(/\D/g, ''))}
        />
      </div>
      <button type="submit" className="button">
        {t('nft.logPage.showDrop')}
      </button>
      {drop !== null ? (
        <Link to="/nfts/log" className="button ghost">
          {t('nft.logPage.allLeaves')}
        </Link>
      ) : null}
    </form>
  );
}

/** The log's latest leaves (a drop's, when filtered): each donation or payout as read from the bytes hashed. */
function Leaves({ leaves, drop }: { leaves: NftLogLeaf[]; drop: number | null }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  if (leaves.length === 0)
    return (
      <Empty text={drop === null ? t('nft.logPage.noLeaves') : t('nft.logPage.noDropLeaves', { drop })} />
    );
  return (
    <ScrollTable
      label={t('nft.logPage.leaves')}
      testId="nft-leaves"
      cards
      head={[
        { text: t('nft.logPage.index'), num: true },
        { text: t('nft.logPage.kind') },
        { text: t('nft.logPage.amount'), num: true },
        { text: t('nft.logPage.what') },
        { text: t('nft.logPage.time') },
      ]}
    >
      {leaves.map((l) => (
        <tr key={l.index} data-leaf={l.index} data-drop={l.dropId ?? ''}>
          <td>{l.index}</td>
          <td>{t(`nft.logPage.leafKind.${l.kind}`)}</td>
          <td>{f.exact(leafAmount(l), l.asset)}</td>
          <td className="nft-leaf-what">
            {l.kind === 'sale' ? t('nft.logPage.saleOf', { drop: l.dropId, token: l.tokenId }) : null}
            {l.kind === 'payout' && l.txHash ? (
              <span className="small">{t('nft.logPage.payoutTo')} </span>
            ) : null}
            {l.txHash ? <Hex value={l.txHash} /> : null}
          </td>
          <td>{f.date(l.createdAt)}</td>
        </tr>
      ))}
    </ScrollTable>
  );
}

function LogBody({ drop }: { drop: number | null }) {
  const { t } = useTranslation();
  const heads = useQuery(nftQueries.heads());
  const leaves = useQuery(nftQueries.leaves(drop));
  const headsId = useId();
  const leavesId = useId();
  if (heads.isPending) return <Loading />;
  if (heads.isError) return <Failed message={heads.error.message} onRetry={() => void heads.refetch()} />;
  if (heads.data.length === 0) return <Empty text={t('nft.logPage.noHeads')} />;
  const key = pinnedKey(heads.data);
  return (
    <>
      <section className="card" aria-labelledby={headsId}>
        <h2 id={headsId}>{t('nft.logPage.heads')}</h2>
        <p className="small">
          {key ? t('nft.logPage.key') : t('nft.logPage.bad.key')}{' '}
          {key ? <Hex value={key} testId="nft-log-key" /> : null}
        </p>
        <Heads heads={heads.data} keyHex={key} />
      </section>
      {key ? <InclusionCheck heads={heads.data} keyHex={key} leaves={leaves.data ?? []} drop={drop} /> : null}
      {key && heads.data.length > 1 ? <ConsistencyCheck heads={heads.data} keyHex={key} /> : null}
      <section className="card" aria-labelledby={leavesId}>
        <h2 id={leavesId}>
          {drop === null ? t('nft.logPage.leaves') : t('nft.logPage.dropLeaves', { drop })}
        </h2>
        <DropFilter key={drop ?? 0} drop={drop} />
        {leaves.isPending ? <Loading /> : null}
        {leaves.isError ? (
          <Failed message={leaves.error.message} onRetry={() => void leaves.refetch()} />
        ) : null}
        {leaves.data ? <Leaves leaves={leaves.data} drop={drop} /> : null}
      </section>
    </>
  );
}

/** /nfts/log: the public donation log, its signed heads, and the two checks made in this page. */
export default function DonationLog() {
  use(nftTexts);
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const value = Number(search.get('drop'));
  const drop = Number.isSafeInteger(value) && value > 0 ? value : null;
  return (
    <div className="container page nft-page">
      <h1 className="page-title">{t('title.nftLog')}</h1>
      <NftNav />
      <p className="nft-intro">{t('nft.logPage.intro')}</p>
      <p className="nft-intro muted">{t('nft.logPage.trust')}</p>
      <LogBody drop={drop} />
    </div>
  );
}

import {
  ASSET_SCALES,
  type Asset,
  type MyNft,
  type NftLogLeaf,
  type NftTreeHead,
  parseMinor,
} from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { useCurrentBook } from '../../shell/BookBadge.tsx';
import { FormError } from '../../ui/Field.tsx';
import { Loading } from '../../ui/PageState.tsx';
import { checkConsistency, checkInclusion, type ExpectedDonation, type LogVerdict } from './logCheck.ts';
import { refusalText, useNftFormat } from './parts.tsx';
import { consistencyProof, inclusionProof, nftQueries } from './queries.ts';

/** A check's outcome in words, with a mark of its own shape. */
function VerdictLine({ verdict, good }: { verdict: LogVerdict; good: string }) {
  const { t } = useTranslation();
  return verdict.ok ? (
    <p className="nft-good" data-testid="nft-verdict" data-ok="true">
      <span aria-hidden="true">✓ </span>
      {good}
    </p>
  ) : (
    <p className="nft-bad" data-testid="nft-verdict" data-ok="false">
      <span aria-hidden="true">✕ </span>
      {t(`nft.logPage.bad.${verdict.reason}`)}
    </p>
  );
}

/** The log's leaf of a drop's sale: in the leaves the page has, else asked of the log by its drop. */
async function findSaleLeaf(dropId: number, known: readonly NftLogLeaf[]): Promise<NftLogLeaf | null> {
  const match = (leaves: readonly NftLogLeaf[]) =>
    leaves.find((l) => l.kind === 'sale' && l.dropId === dropId) ?? null;
  return match(known) ?? match(await callApi('listNftLogLeaves', { query: { size: 100, dropId } }));
}

type Outcome =
  | { step: 'idle' | 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'absent'; reason: 'notFound' | 'notYet' }
  | { step: 'done'; verdict: LogVerdict; index: number; size: number };

/** What the buyer expects of their donation, from their own NFT (the page's record, not the log's). */
function expectedOf(n: MyNft): ExpectedDonation {
  return {
    dropId: Number(n.dropId),
    asset: n.asset,
    amountMinor: parseMinor(n.donation, ASSET_SCALES[n.asset as Asset] ?? 6).toString(),
  };
}

type Done = Extract<Outcome, { step: 'done' }>;

/** A check's progress and outcome, said politely as it changes. */
function OutcomeView({ outcome, good }: { outcome: Outcome; good: (o: Done) => string }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite">
      {outcome.step === 'loading' ? <Loading /> : null}
      {outcome.step === 'failed' ? <FormError message={outcome.message} /> : null}
      {outcome.step === 'absent' ? <p>{t(`nft.logPage.${outcome.reason}`)}</p> : null}
      {outcome.step === 'done' ? <VerdictLine verdict={outcome.verdict} good={good(outcome)} /> : null}
    </div>
  );
}

/** The buyer's NFTs with a donation, to pick the one to check. */
function DonationPicker({
  owned,
  chosen,
  setChosen,
  busy,
  onCheck,
}: {
  owned: MyNft[];
  chosen: string;
  setChosen: (value: string) => void;
  busy: boolean;
  onCheck: (event: FormEvent) => Promise<void>;
}) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const pick = useId();
  return (
    <form className="nft-check-form" onSubmit={(e) => void onCheck(e)}>
      <div className="field">
        <label htmlFor={pick}>{t('nft.logPage.yourDonation')}</label>
        <select id={pick} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">{t('nft.logPage.choose')}</option>
          {owned.map((n) => (
            <option key={n.id} value={n.dropId}>
              {`${n.name} · ${f.exact(n.donation, n.asset)}`}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button primary" disabled={!chosen || busy}>
        {t('nft.logPage.check')}
      </button>
    </form>
  );
}

/** "Is my donation in the log?": the buyer's sale found, its proof fetched, and everything checked here. */
export function InclusionCheck({
  heads,
  keyHex,
  leaves,
  drop,
}: {
  heads: NftTreeHead[];
  keyHex: string;
  leaves: NftLogLeaf[];
  drop: number | null;
}) {
  const { t } = useTranslation();
  const book = useCurrentBook();
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const mine = useQuery({ ...nftQueries.mine(book, userId), enabled: userId > 0 });
  const heading = useId();
  const [chosen, setChosen] = useState<string>(drop === null ? '' : String(drop));
  const [outcome, setOutcome] = useState<Outcome>({ step: 'idle' });
  const head = heads[0] as NftTreeHead;
  const owned = (mine.data ?? []).filter((n) => /[1-9]/.test(n.donation));
  const check = async (event: FormEvent) => {
    event.preventDefault();
    const nft = owned.find((n) => String(n.dropId) === chosen);
    if (!nft) return;
    setOutcome({ step: 'loading' });
    try {
      const leaf = await findSaleLeaf(Number(nft.dropId), leaves);
      if (!leaf) return setOutcome({ step: 'absent', reason: 'notFound' });
      if (leaf.index >= head.treeSize) return setOutcome({ step: 'absent', reason: 'notYet' });
      const proof = await inclusionProof(leaf.index, head.treeSize);
      const verdict = checkInclusion({ head, key: keyHex, proof, expected: expectedOf(nft) });
      setOutcome({ step: 'done', verdict, index: leaf.index, size: head.treeSize });
    } catch (error) {
      setOutcome({ step: 'failed', message: refusalText(error, t('state.error')) });
    }
  };
  return (
    <section className="card nft-check" aria-labelledby={heading} data-testid="nft-inclusion">
      <h2 id={heading}>{t('nft.logPage.inclusionTitle')}</h2>
      <p className="small">{t('nft.logPage.inclusionHow')}</p>
      {userId === 0 ? <p>{t('nft.logPage.signIn')}</p> : null}
      {userId > 0 && mine.data && owned.length === 0 ? <p>{t('nft.logPage.noDonation')}</p> : null}
      {owned.length > 0 ? (
        <DonationPicker
          owned={owned}
          chosen={chosen}
          setChosen={setChosen}
          busy={outcome.step === 'loading'}
          onCheck={check}
        />
      ) : null}
      <OutcomeView
        outcome={outcome}
        good={(o) =>
          t('nft.logPage.included', {
            index: o.index,
            size: o.size,
            steps: o.verdict.ok ? o.verdict.steps : 0,
          })
        }
      />
    </section>
  );
}

/** "Does today's log extend yesterday's?": two signed heads and the proof between them, checked here. */
export function ConsistencyCheck({ heads, keyHex }: { heads: NftTreeHead[]; keyHex: string }) {
  const { t } = useTranslation();
  const f = useNftFormat();
  const heading = useId();
  const olderId = useId();
  const newerId = useId();
  const usable = heads.filter((h) => h.treeSize > 0);
  const [older, setOlder] = useState(String(usable[1]?.treeSize ?? usable[0]?.treeSize ?? ''));
  const [newer, setNewer] = useState(String(usable[0]?.treeSize ?? ''));
  const [outcome, setOutcome] = useState<Outcome>({ step: 'idle' });
  const headOf = (size: string) => usable.find((h) => String(h.treeSize) === size);
  const label = (h: NftTreeHead) =>
    t('nft.logPage.headOption', {
      count: h.treeSize,
      size: f.count(h.treeSize),
      time: f.date(new Date(h.timestamp).toISOString()),
    });
  const check = async (event: FormEvent) => {
    event.preventDefault();
    const a = headOf(older);
    const b = headOf(newer);
    if (!a || !b || a.treeSize > b.treeSize)
      return setOutcome({ step: 'failed', message: t('nft.logPage.order') });
    setOutcome({ step: 'loading' });
    try {
      const proof = await consistencyProof(a.treeSize, b.treeSize);
      setOutcome({
        step: 'done',
        verdict: checkConsistency({ older: a, newer: b, key: keyHex, proof }),
        index: a.treeSize,
        size: b.treeSize,
      });
    } catch (error) {
      setOutcome({ step: 'failed', message: refusalText(error, t('state.error')) });
    }
  };
  const select = (id: string, value: string, set: (v: string) => void, text: string) => (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      <select id={id} value={value} onChange={(e) => set(e.target.value)}>
        {usable.map((h) => (
          <option key={`${h.treeSize}-${h.timestamp}`} value={h.treeSize}>
            {label(h)}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <section className="card nft-check" aria-labelledby={heading} data-testid="nft-consistency">
      <h2 id={heading}>{t('nft.logPage.consistencyTitle')}</h2>
      <p className="small">{t('nft.logPage.consistencyHow')}</p>
      <form className="nft-check-form" onSubmit={(e) => void check(e)}>
        {select(olderId, older, setOlder, t('nft.logPage.older'))}
        {select(newerId, newer, setNewer, t('nft.logPage.newer'))}
        <button type="submit" className="button primary" disabled={outcome.step === 'loading'}>
          {t('nft.logPage.check')}
        </button>
      </form>
      <OutcomeView outcome={outcome} good={(o) => t('nft.logPage.consistent', { m: o.index, n: o.size })} />
    </section>
  );
}

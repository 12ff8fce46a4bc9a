import { formatDisplay, formatMinor, PROOF_LINES, type ProofRoot } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { use, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatUtcDay, formatUtcTime } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { myBranch, proofsQueries } from './queries.ts';
import { proofsTexts } from './texts.ts';
import { type Verdict, verifyBranch } from './verify.ts';
import './proofs.css';

const useAmount = () => {
  const language = useClientState((s) => s.language);
  return (minor: string, root: ProofRoot) =>
    formatDisplay(language, formatMinor(BigInt(minor), root.scale), root.asset);
};

/** What the customers are owed: balance, earn and smart plans (loans owed are theirs to the platform, shown apart). */
const owed = (root: ProofRoot) =>
  BigInt(root.totals.balance) + BigInt(root.totals.earn) + BigInt(root.totals.smart);

/** "Verify my balance": the branch downloaded and checked here, by the page's own code. */
function VerifyMine({ root }: { root: ProofRoot }) {
  const { t } = useTranslation();
  const me = useClientState((s) => s.userInfo?.id ?? 0);
  const [state, setState] = useState<
    | { step: 'idle' | 'loading' }
    | { step: 'failed'; message: string }
    | { step: 'done'; verdict: Verdict; sums: Record<string, string> | null }
  >({ step: 'idle' });
  const verify = async () => {
    setState({ step: 'loading' });
    try {
      const branch = await myBranch(root.day, root.asset);
      setState({ step: 'done', verdict: verifyBranch(branch, me), sums: branch.leaf?.sums ?? null });
    } catch (error) {
      setState({ step: 'failed', message: error instanceof Error ? error.message : t('state.error') });
    }
  };
  return (
    <div className="proof-verify">
      <button
        type="button"
        className="button"
        onClick={() => void verify()}
        disabled={state.step === 'loading'}
      >
        {t('proofs.verify', { asset: root.asset })}
      </button>
      <div role="status" aria-live="polite">
        {state.step === 'loading' ? <Loading /> : null}
        {state.step === 'failed' ? <Failed message={state.message} onRetry={() => void verify()} /> : null}
        {state.step === 'done' ? <VerdictText verdict={state.verdict} sums={state.sums} root={root} /> : null}
      </div>
    </div>
  );
}

function VerdictText({
  verdict,
  sums,
  root,
}: {
  verdict: Verdict;
  sums: Record<string, string> | null;
  root: ProofRoot;
}) {
  const { t } = useTranslation();
  const amount = useAmount();
  if (!verdict.ok && verdict.reason === 'no_leaf') return <p>{t('proofs.noLeaf', { asset: root.asset })}</p>;
  if (!verdict.ok) return <p className="proof-bad">{t(`proofs.bad.${verdict.reason}`)}</p>;
  return (
    <div className="proof-good">
      <p>{t('proofs.good', { steps: verdict.steps })}</p>
      {sums ? (
        <dl className="proof-lines">
          {PROOF_LINES.map((line) => (
            <div key={line}>
              <dt>{t(`proofs.line.${line}`)}</dt>
              <dd dir="ltr">{amount(sums[line] ?? '0', root)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

function AssetCard({ root, signedIn }: { root: ProofRoot; signedIn: boolean }) {
  const { t } = useTranslation();
  const amount = useAmount();
  const language = useClientState((s) => s.language);
  const heading = useId();
  const assets = root.assets;
  const held = assets && assets.chain !== 'none' ? BigInt(assets.totalMinor) : null;
  return (
    <section className="card proof-card" aria-labelledby={heading}>
      <h2 id={heading}>{root.asset}</h2>
      <dl className="proof-lines">
        {PROOF_LINES.map((line) => (
          <div key={line}>
            <dt>{t(`proofs.line.${line}`)}</dt>
            <dd dir="ltr">{amount(root.totals[line], root)}</dd>
          </div>
        ))}
        <div className="proof-total">
          <dt>{t('proofs.liabilities')}</dt>
          <dd dir="ltr">{amount(String(owed(root)), root)}</dd>
        </div>
        <div className="proof-total">
          <dt>{t('proofs.onChain')}</dt>
          <dd dir="ltr">{held === null ? t('proofs.notRead') : amount(String(held), root)}</dd>
        </div>
      </dl>
      {assets && assets.chain !== 'none' ? (
        <p className="proof-note">
          {t('proofs.assetsAt', {
            block: assets.block,
            addresses: assets.addresses.length,
            signed: assets.addresses.filter((a) => a.signature !== null).length,
          })}
        </p>
      ) : null}
      <dl className="proof-facts">
        <div>
          <dt>{t('proofs.leaves')}</dt>
          <dd>{root.leafCount}</dd>
        </div>
        <div>
          <dt>{t('proofs.taken')}</dt>
          <dd>{formatUtcTime(language, root.takenAt)}</dd>
        </div>
        <div>
          <dt>{t('proofs.root')}</dt>
          <dd>
            <code dir="ltr">{root.rootHash}</code>
          </dd>
        </div>
        <div>
          <dt>{t('proofs.signature')}</dt>
          <dd>
            <code dir="ltr">{root.signature}</code>
          </dd>
        </div>
      </dl>
      {signedIn && root.leafCount > 0 ? <VerifyMine root={root} /> : null}
    </section>
  );
}

function Roots({ day }: { day: string | undefined }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const signedIn = useClientState((s) => s.isLogin);
  const [, setSearch] = useSearchParams();
  const roots = useQuery(proofsQueries.roots(day));
  const pick = useId();
  if (roots.isPending) return <Loading />;
  if (roots.isError) return <Failed message={roots.error.message} onRetry={() => void roots.refetch()} />;
  const { data } = roots;
  if (data.day === null || data.roots.length === 0) return <Empty text={t('proofs.empty')} />;
  const publicKey = data.roots[0]?.publicKey ?? '';
  return (
    <>
      <div className="proof-day">
        <label htmlFor={pick}>{t('proofs.day')}</label>
        <select id={pick} value={data.day} onChange={(event) => setSearch({ day: event.target.value })}>
          {data.days.map((d) => (
            <option key={d} value={d}>
              {formatUtcDay(language, d)}
            </option>
          ))}
        </select>
      </div>
      <p className="proof-note">
        {t('proofs.publicKey')} <code dir="ltr">{publicKey}</code>
      </p>
      {signedIn ? null : <p className="proof-note">{t('proofs.signIn')}</p>}
      <div className="proof-cards">
        {data.roots.map((root) => (
          <AssetCard key={root.asset} root={root} signedIn={signedIn} />
        ))}
      </div>
    </>
  );
}

/** /proof: per asset what customers are owed against what the platform holds on chain, signed, and checkable here. */
export default function ProofPage() {
  use(proofsTexts);
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const day = search.get('day');
  return (
    <div className="container page proofs">
      <h1 className="page-title">{t('title.proof')}</h1>
      <section className="proof-explain" aria-label={t('proofs.about')}>
        <p>{t('proofs.proves')}</p>
        <p>
          <strong>{t('proofs.notProvesTitle')}</strong> {t('proofs.notProves')}
        </p>
      </section>
      <Roots day={day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined} />
    </div>
  );
}

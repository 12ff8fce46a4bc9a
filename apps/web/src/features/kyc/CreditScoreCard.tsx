import { useQuery } from '@tanstack/react-query';
import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { kycQueries } from './queries.ts';
import { kycTexts } from './texts.ts';
import './kyc.css';

/** The credit score on the profile, with every rule that moves it and whether it applies. */
export function CreditScoreCard() {
  use(kycTexts);
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const score = useQuery({ ...kycQueries.creditScore(userId, language), enabled: userId > 0 });
  if (score.isPending) return <Loading />;
  if (score.isError) return <Failed onRetry={() => void score.refetch()} />;
  const { data } = score;
  const verifiedRule = data.rules.find((r) => r.key === 'kycVerified');
  return (
    <section className="card credit-card" aria-labelledby="credit-title">
      <h2 id="credit-title" className="credit-title">
        {t('kyc.credit.title')}
      </h2>
      <p className="credit-score">
        <meter min={0} max={data.max} value={data.score} aria-labelledby="credit-title" />
        <span data-testid="credit-score">
          {t('kyc.credit.of', {
            score: formatNumber(language, data.score),
            max: formatNumber(language, data.max),
          })}
        </span>
      </p>
      <h3 className="small">{t('kyc.credit.rulesTitle')}</h3>
      <ul className="credit-rules">
        {data.rules.map((rule) => (
          <li key={rule.key} className={rule.applied ? 'applied' : undefined}>
            <span>{t(`kyc.credit.rule.${rule.key}`, { defaultValue: rule.key })}</span>
            <span className="badge">
              {rule.applied ? t('kyc.credit.applied') : t('kyc.credit.notApplied')}
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small">{t('kyc.credit.later')}</p>
      {verifiedRule && !verifiedRule.applied ? (
        <Link className="button ghost small" to="/profile/verification">
          {t('kyc.credit.verifyLink')}
        </Link>
      ) : null}
    </section>
  );
}

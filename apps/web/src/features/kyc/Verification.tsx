import { type IdentificationStatus, LANGUAGE_TAGS, type PhotoSide } from '@swx/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { useUploadedFile } from '../uploads/upload.ts';
import { KycForm } from './KycForm.tsx';
import { kycQueries } from './queries.ts';
import { kycTexts } from './texts.ts';
import './kyc.css';

function SubmittedPhoto({ id, side }: { id: string; side: PhotoSide }) {
  const { t } = useTranslation();
  const { url, failed } = useUploadedFile(id);
  return (
    <figure className="photo-preview">
      {url ? (
        <img src={url} alt={t(`kyc.form.${side}`)} />
      ) : (
        <p className="muted small">{failed ? t('state.error') : t('state.loading')}</p>
      )}
      <figcaption className="small">{t(`kyc.form.${side}`)}</figcaption>
    </figure>
  );
}

function Submitted({ details }: { details: NonNullable<IdentificationStatus['details']> }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const country = new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region' }).of(details.country);
  const rows: [string, string][] = [
    [t('kyc.form.firstName'), details.firstName],
    [t('kyc.form.lastName'), details.lastName],
    [
      t('kyc.form.birthdate'),
      formatDate(language, `${details.birthdate}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' }),
    ],
    [t('kyc.form.sex'), t(`kyc.form.${details.sex}`)],
    [t('kyc.form.country'), country ?? details.country],
    [t('kyc.form.address'), details.address],
    // Isolated left to right, so Arabic shows +44 2079460000, not the plus after the digits.
    [t('kyc.form.phone'), `\u2066${details.phoneCode} ${details.phone}\u2069`],
    [t('kyc.form.documentType'), t(`kyc.form.${details.documentType}`)],
  ];
  return (
    <section className="card" aria-labelledby="kyc-submitted">
      <h2 id="kyc-submitted">{t('kyc.details')}</h2>
      <dl className="term-grid kyc-details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="muted small">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="photo-grid">
        {details.photos.map((p) => (
          <SubmittedPhoto key={p.id} id={p.id} side={p.side} />
        ))}
      </div>
    </section>
  );
}

function StateCard({ status }: { status: IdentificationStatus }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const when = (value: string | null) =>
    value ? formatDate(language, value, { dateStyle: 'medium', timeStyle: 'short' }) : '';
  return (
    <section className={`card kyc-state kyc-${status.state}`} aria-live="polite">
      <p className="kyc-state-title">
        <span className="visually-hidden">{t('kyc.stateLabel')} </span>
        <strong data-testid="kyc-state">{t(`kyc.state.${status.state}`)}</strong>
      </p>
      <p>
        {t(`kyc.stateHint.${status.state}`, {
          submitted: when(status.submittedAt),
          due: when(status.dueAt),
          reviewed: when(status.reviewedAt),
          reason: status.reason ?? '',
        })}
      </p>
    </section>
  );
}

/** Account verification (spec §2 "account verification", §3 KYC, §4 states, §5 uploads). */
export default function Verification() {
  use(kycTexts);
  const { t } = useTranslation();
  return (
    <AccountPage title={t('title.verification')}>
      <VerificationBody />
    </AccountPage>
  );
}

function VerificationBody() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const userId = useClientState((s) => s.userInfo?.id ?? 0);
  const queryClient = useQueryClient();
  const status = useQuery({ ...kycQueries.status(userId, language), enabled: userId > 0 });
  const [justSent, setJustSent] = useState(false);
  if (status.isPending) return <Loading />;
  if (status.isError) return <Failed onRetry={() => void status.refetch()} />;
  const data = status.data;
  return (
    <div className="kyc-page">
      <p className="muted">{t('kyc.intro')}</p>
      <StateCard status={data} />
      {justSent && data.state === 'pending' ? (
        <p className="form-notice" role="status">
          {t('kyc.form.done')}
        </p>
      ) : null}
      {data.canSubmit ? (
        <section className="card">
          <KycForm
            key={data.submittedAt ?? 'new'}
            previous={data.details}
            onDone={() => {
              setJustSent(true);
              void queryClient.invalidateQueries({ queryKey: kycQueries.all });
            }}
          />
        </section>
      ) : data.details ? (
        <Submitted details={data.details} />
      ) : null}
    </div>
  );
}

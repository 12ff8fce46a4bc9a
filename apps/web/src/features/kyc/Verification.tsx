import {
  COUNTRIES,
  Code,
  DOCUMENT_TYPES,
  type IdentificationStatus,
  LANGUAGE_TAGS,
  type Language,
  PHONE_CODES,
  PHOTO_PURPOSES,
  PHOTO_SIDES,
  type PhotoSide,
  phoneCodeOfCountry,
  SEXES,
} from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type ReactNode, use, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { Field, FormError } from '../../ui/Field.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { ImageInput } from '../uploads/ImageInput.tsx';
import { useUploadedFile } from '../uploads/upload.ts';
import { kycQueries } from './queries.ts';
import { kycTexts } from './texts.ts';
import './kyc.css';

type Fields = {
  firstName: string;
  lastName: string;
  birthdate: string;
  sex: string;
  country: string;
  address: string;
  phoneCode: string;
  phone: string;
  documentType: string;
};
type Errors = Partial<Record<keyof Fields | PhotoSide, string>>;

const EMPTY: Fields = {
  firstName: '',
  lastName: '',
  birthdate: '',
  sex: '',
  country: '',
  address: '',
  phoneCode: '+44',
  phone: '',
  documentType: '',
};

/** The latest birthdate of an adult today, for the date picker's max. */
function adultBirthdateMax(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - 18);
  return d.toISOString().slice(0, 10);
}

function useCountryOptions(language: Language) {
  return useMemo(() => {
    const names = new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region' });
    return COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, LANGUAGE_TAGS[language]),
    );
  }, [language]);
}

function SelectField({
  label,
  value,
  error,
  onChange,
  children,
  name,
  dir,
}: {
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
  children: ReactNode;
  name: string;
  dir?: 'ltr' | undefined;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        className="control"
        id={id}
        name={name}
        dir={dir}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      >
        {children}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ChoiceField({
  legend,
  name,
  options,
  value,
  error,
  onChange,
}: {
  legend: string;
  name: string;
  options: { value: string; label: string }[];
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <fieldset className="field choice" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="choice-row">
        {options.map((option) => (
          <label key={option.value} className="choice-option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function KycForm({ previous, onDone }: { previous: IdentificationStatus['details']; onDone: () => void }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const countries = useCountryOptions(language);
  const [fields, setFields] = useState<Fields>(() =>
    previous
      ? {
          firstName: previous.firstName,
          lastName: previous.lastName,
          birthdate: previous.birthdate,
          sex: previous.sex,
          country: previous.country,
          address: previous.address,
          phoneCode: previous.phoneCode,
          phone: previous.phone,
          documentType: previous.documentType,
        }
      : EMPTY,
  );
  /** The upload id of each photo, once uploaded and checked; which ones are still being sent. */
  const [photos, setPhotos] = useState<Partial<Record<PhotoSide, string>>>({});
  const [sending, setSending] = useState<Partial<Record<PhotoSide, boolean>>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const set = (key: keyof Fields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  /** A text field's name, value, error and change handler, bound to its key. */
  const bind = (key: keyof Fields) => ({
    name: key,
    value: fields[key],
    error: errors[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key)(e.target.value),
  });
  const setPhoto = (side: PhotoSide, id: string | null) => {
    setPhotos(({ [side]: _gone, ...rest }) => (id ? { ...rest, [side]: id } : rest));
    if (id) setErrors(({ [side]: _fixed, ...rest }) => rest);
  };

  const submit = useMutation({
    mutationFn: () =>
      callApi('identification', {
        body: {
          ...fields,
          firstName: fields.firstName.trim(),
          lastName: fields.lastName.trim(),
          address: fields.address.trim(),
          phone: fields.phone.trim(),
          photos,
        },
      }),
    onSuccess: onDone,
    onError: (error) => {
      if (error instanceof ApiFailure && error.code === Code.INVALID_INPUT && Array.isArray(error.data)) {
        const next: Errors = {};
        for (const item of error.data as { path?: string; issue?: string }[]) {
          const path = (item.path ?? '').replace(/^photos\./, '') as keyof Errors;
          if (!path) continue;
          next[path] =
            path === 'birthdate' && item.issue === 'age'
              ? t('kyc.error.age')
              : (PHOTO_SIDES as readonly string[]).includes(path)
                ? t('kyc.error.photoAgain')
                : t('kyc.error.invalid');
        }
        setErrors(next);
        setFailure(t('kyc.error.fix'));
      } else setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    },
  });

  const validate = (): Errors => {
    const e: Errors = {};
    for (const key of ['firstName', 'lastName', 'birthdate', 'sex', 'country', 'documentType'] as const)
      if (!fields[key].trim()) e[key] = t('kyc.error.required');
    if (fields.address.trim().length < 5) e.address = t('kyc.error.address');
    if (!/^\d{4,15}$/.test(fields.phone.trim())) e.phone = t('kyc.error.phone');
    if (fields.birthdate && fields.birthdate > adultBirthdateMax()) e.birthdate = t('kyc.error.age');
    for (const side of PHOTO_SIDES) if (!photos[side]) e[side] = t('kyc.error.photoMissing');
    return e;
  };

  return (
    <form
      className="pass-form kyc-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setFailure('');
        const found = validate();
        setErrors(found);
        if (Object.values(found).some(Boolean)) {
          setFailure(t('kyc.error.fix'));
          return;
        }
        submit.mutate();
      }}
    >
      <h2>{previous ? t('kyc.form.resubmitTitle') : t('kyc.form.title')}</h2>
      <div className="kyc-grid">
        <Field label={t('kyc.form.firstName')} autoComplete="given-name" {...bind('firstName')} />
        <Field label={t('kyc.form.lastName')} autoComplete="family-name" {...bind('lastName')} />
        <Field
          label={t('kyc.form.birthdate')}
          type="date"
          autoComplete="bday"
          max={adultBirthdateMax()}
          {...bind('birthdate')}
        />
        <ChoiceField
          legend={t('kyc.form.sex')}
          name="sex"
          value={fields.sex}
          error={errors.sex}
          onChange={set('sex')}
          options={SEXES.map((value) => ({ value, label: t(`kyc.form.${value}`) }))}
        />
        <SelectField
          label={t('kyc.form.country')}
          name="country"
          value={fields.country}
          error={errors.country}
          onChange={(country) =>
            // The area code follows the country when the country's code is offered.
            setFields((f) => ({ ...f, country, phoneCode: phoneCodeOfCountry(country) ?? f.phoneCode }))
          }
        >
          <option value="">{t('kyc.form.chooseCountry')}</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <Field label={t('kyc.form.address')} autoComplete="street-address" {...bind('address')} />
        <div className="phone-row">
          <SelectField
            label={t('kyc.form.phoneCode')}
            name="phoneCode"
            dir="ltr"
            value={fields.phoneCode}
            onChange={set('phoneCode')}
          >
            {PHONE_CODES.map((code) => (
              <option key={code} value={code} dir="ltr">
                {/* A left-to-right mark keeps the plus before the digits in Arabic too. */}
                {`\u200e${code}`}
              </option>
            ))}
          </SelectField>
          <Field
            label={t('kyc.form.phone')}
            type="tel"
            dir="ltr"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={15}
            {...bind('phone')}
          />
        </div>
        <ChoiceField
          legend={t('kyc.form.documentType')}
          name="documentType"
          value={fields.documentType}
          error={errors.documentType}
          onChange={set('documentType')}
          options={DOCUMENT_TYPES.map((value) => ({ value, label: t(`kyc.form.${value}`) }))}
        />
      </div>
      <h3>{t('kyc.form.photos')}</h3>
      <p className="muted small">{t('kyc.form.photosHint')}</p>
      <div className="photo-grid">
        {PHOTO_SIDES.map((side) => (
          <ImageInput
            key={side}
            purpose={PHOTO_PURPOSES[side]}
            label={t(`kyc.form.${side}`)}
            name={side}
            error={errors[side]}
            onChange={(id) => setPhoto(side, id)}
            onBusyChange={(busy) => setSending((s) => ({ ...s, [side]: busy }))}
          />
        ))}
      </div>
      <FormError message={failure} />
      <button
        type="submit"
        className="button primary"
        disabled={submit.isPending || Object.values(sending).some(Boolean)}
      >
        {submit.isPending ? t('kyc.form.submitting') : t('kyc.form.submit')}
      </button>
    </form>
  );
}

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

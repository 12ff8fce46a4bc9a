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
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ChangeEvent, type FormEvent, type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { ImageInput } from '../uploads/ImageInput.tsx';
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
/** The upload id of each photo, once uploaded and checked. */
type Photos = Partial<Record<PhotoSide, string>>;

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

/** The form's fields: empty, or those of the last submission when it is sent again. */
function initialFields(previous: IdentificationStatus['details']): Fields {
  if (!previous) return EMPTY;
  const { firstName, lastName, birthdate, sex, country, address, phoneCode, phone, documentType } = previous;
  return { firstName, lastName, birthdate, sex, country, address, phoneCode, phone, documentType };
}

/** What is missing or wrong before anything is sent: the fields, an adult's birthdate, every photo. */
function validateFields(fields: Fields, photos: Photos, t: TFunction): Errors {
  const e: Errors = {};
  for (const key of ['firstName', 'lastName', 'birthdate', 'sex', 'country', 'documentType'] as const)
    if (!fields[key].trim()) e[key] = t('kyc.error.required');
  if (fields.address.trim().length < 5) e.address = t('kyc.error.address');
  if (!/^\d{4,15}$/.test(fields.phone.trim())) e.phone = t('kyc.error.phone');
  if (fields.birthdate && fields.birthdate > adultBirthdateMax()) e.birthdate = t('kyc.error.age');
  for (const side of PHOTO_SIDES) if (!photos[side]) e[side] = t('kyc.error.photoMissing');
  return e;
}

/** The server's refusal of fields (10002 with their paths) on those fields; null for any other refusal. */
function refusalErrors(error: unknown, t: TFunction): Errors | null {
  if (!(error instanceof ApiFailure && error.code === Code.INVALID_INPUT && Array.isArray(error.data)))
    return null;
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
  return next;
}

/**
 * The form's state: the fields, the photos (their upload ids once uploaded and checked, and which
 * are still being sent), the errors, and the submit (checked here first, then by the server).
 */
function useKycForm(previous: IdentificationStatus['details'], onDone: () => void) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<Fields>(() => initialFields(previous));
  const [photos, setPhotos] = useState<Photos>({});
  const [sending, setSending] = useState<Partial<Record<PhotoSide, boolean>>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const set = (key: keyof Fields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
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
      const next = refusalErrors(error, t);
      if (next) {
        setErrors(next);
        setFailure(t('kyc.error.fix'));
      } else setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailure('');
    const found = validateFields(fields, photos, t);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      setFailure(t('kyc.error.fix'));
      return;
    }
    submit.mutate();
  };
  return {
    fields,
    setFields,
    set,
    errors,
    failure,
    onSubmit,
    busy: submit.isPending,
    uploading: Object.values(sending).some(Boolean),
    /** A text field's name, value, error and change handler, bound to its key. */
    bind: (key: keyof Fields) => ({
      name: key,
      value: fields[key],
      error: errors[key],
      onChange: (e: ChangeEvent<HTMLInputElement>) => set(key)(e.target.value),
    }),
    setPhoto: (side: PhotoSide, id: string | null) => {
      setPhotos(({ [side]: _gone, ...rest }) => (id ? { ...rest, [side]: id } : rest));
      if (id) setErrors(({ [side]: _fixed, ...rest }) => rest);
    },
    setSending: (side: PhotoSide, busy: boolean) => setSending((s) => ({ ...s, [side]: busy })),
  };
}

type KycFormState = ReturnType<typeof useKycForm>;

/** The country (in the reader's language, sorted), its area code following it, and the phone. */
function CountryAndPhone({ form }: { form: KycFormState }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const countries = useCountryOptions(language);
  const { fields, errors } = form;
  return (
    <>
      <SelectField
        label={t('kyc.form.country')}
        name="country"
        value={fields.country}
        error={errors.country}
        onChange={(country) =>
          // The area code follows the country when the country's code is offered.
          form.setFields((f) => ({ ...f, country, phoneCode: phoneCodeOfCountry(country) ?? f.phoneCode }))
        }
      >
        <option value="">{t('kyc.form.chooseCountry')}</option>
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <Field label={t('kyc.form.address')} autoComplete="street-address" {...form.bind('address')} />
      <div className="phone-row">
        <SelectField
          label={t('kyc.form.phoneCode')}
          name="phoneCode"
          dir="ltr"
          value={fields.phoneCode}
          onChange={form.set('phoneCode')}
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
          {...form.bind('phone')}
        />
      </div>
    </>
  );
}

/** Who the customer is: name, birthdate, sex, country, address, phone and the document they show. */
function PersonFields({ form }: { form: KycFormState }) {
  const { t } = useTranslation();
  const { fields, errors } = form;
  return (
    <div className="kyc-grid">
      <Field label={t('kyc.form.firstName')} autoComplete="given-name" {...form.bind('firstName')} />
      <Field label={t('kyc.form.lastName')} autoComplete="family-name" {...form.bind('lastName')} />
      <Field
        label={t('kyc.form.birthdate')}
        type="date"
        autoComplete="bday"
        max={adultBirthdateMax()}
        {...form.bind('birthdate')}
      />
      <ChoiceField
        legend={t('kyc.form.sex')}
        name="sex"
        value={fields.sex}
        error={errors.sex}
        onChange={form.set('sex')}
        options={SEXES.map((value) => ({ value, label: t(`kyc.form.${value}`) }))}
      />
      <CountryAndPhone form={form} />
      <ChoiceField
        legend={t('kyc.form.documentType')}
        name="documentType"
        value={fields.documentType}
        error={errors.documentType}
        onChange={form.set('documentType')}
        options={DOCUMENT_TYPES.map((value) => ({ value, label: t(`kyc.form.${value}`) }))}
      />
    </div>
  );
}

/** The identity form, filled in with the last submission when it is sent again, then its photos. */
export function KycForm({
  previous,
  onDone,
}: {
  previous: IdentificationStatus['details'];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const form = useKycForm(previous, onDone);
  return (
    <form className="pass-form kyc-form" noValidate onSubmit={form.onSubmit}>
      <h2>{previous ? t('kyc.form.resubmitTitle') : t('kyc.form.title')}</h2>
      <PersonFields form={form} />
      <h3>{t('kyc.form.photos')}</h3>
      <p className="muted small">{t('kyc.form.photosHint')}</p>
      <div className="photo-grid">
        {PHOTO_SIDES.map((side) => (
          <ImageInput
            key={side}
            purpose={PHOTO_PURPOSES[side]}
            label={t(`kyc.form.${side}`)}
            name={side}
            error={form.errors[side]}
            onChange={(id) => form.setPhoto(side, id)}
            onBusyChange={(busy) => form.setSending(side, busy)}
          />
        ))}
      </div>
      <FormError message={form.failure} />
      <SubmitButton busy={form.busy} disabled={form.uploading} className="button primary">
        {form.busy ? t('kyc.form.submitting') : t('kyc.form.submit')}
      </SubmitButton>
    </form>
  );
}

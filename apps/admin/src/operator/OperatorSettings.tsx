import {
  COUNTRIES,
  LANGUAGE_NAMES,
  LANGUAGE_TAGS,
  LANGUAGES,
  type Language,
  type LocalizedText,
  type OperatorSettingsRecord,
  operatorSettings,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from '@swx/contract';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { callAdmin, failureMessage, StaffApiError } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Alert, Field, FieldError } from '../Field.tsx';
import { fill, formatTime } from '../text.ts';
import { OPERATOR_TEXT, type OperatorText } from './operator.text.ts';

type Localized = Record<Language, string>;
type LeaderRow = { key: number; name: string; role: Localized; photoUrl: string };
type PartnerRow = { key: number; name: string; url: string };
type Form = {
  companyName: string;
  registrationNumber: string;
  registrationCountry: string;
  registeredAddress: string;
  regulator: string;
  licenceNumber: string;
  registerUrl: string;
  supportEmail: string;
  supportPhone: string;
  supportHours: Localized;
  riskPercent: string;
  riskAsOf: string;
  leaders: LeaderRow[];
  partners: PartnerRow[];
  appStoreUrl: string;
  googlePlayUrl: string;
  social: Record<SocialNetwork, string>;
};
/** Field errors by the contract's issue path ("leaders.0.role", "supportEmail", …). */
type Errors = Record<string, string>;

const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  x: 'X',
  telegram: 'Telegram',
  facebook: 'Facebook',
  youtube: 'YouTube',
};

let nextKey = 1;
const localized = (value: LocalizedText | undefined): Localized =>
  Object.fromEntries(LANGUAGES.map((language) => [language, value?.[language] ?? ''])) as Localized;

function formOf(record: OperatorSettingsRecord): Form {
  const s = record.settings;
  return {
    companyName: s.companyName ?? '',
    registrationNumber: s.registrationNumber ?? '',
    registrationCountry: s.registrationCountry ?? '',
    registeredAddress: s.registeredAddress ?? '',
    regulator: s.regulator ?? '',
    licenceNumber: s.licenceNumber ?? '',
    registerUrl: s.registerUrl ?? '',
    supportEmail: s.supportEmail ?? '',
    supportPhone: s.supportPhone ?? '',
    supportHours: localized(s.supportHours),
    riskPercent: s.riskPercent ?? '',
    riskAsOf: s.riskAsOf ?? '',
    leaders: s.leaders.map((leader) => ({
      key: nextKey++,
      name: leader.name,
      role: localized(leader.role),
      photoUrl: leader.photoUrl ?? '',
    })),
    partners: s.partners.map((partner) => ({ key: nextKey++, name: partner.name, url: partner.url ?? '' })),
    appStoreUrl: s.appStoreUrl ?? '',
    googlePlayUrl: s.googlePlayUrl ?? '',
    social: Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [
        network,
        s.social.find((item) => item.network === network)?.url ?? '',
      ]),
    ) as Record<SocialNetwork, string>,
  };
}

/** The form as the contract's input: blank fields are left out (not set is not shown). */
function inputOf(form: Form): unknown {
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const texts = (value: Localized) =>
    Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v.trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    );
  const hours = texts(form.supportHours);
  return {
    companyName: text(form.companyName),
    registrationNumber: text(form.registrationNumber),
    registrationCountry: text(form.registrationCountry),
    registeredAddress: text(form.registeredAddress),
    regulator: text(form.regulator),
    licenceNumber: text(form.licenceNumber),
    registerUrl: text(form.registerUrl),
    supportEmail: text(form.supportEmail),
    supportPhone: text(form.supportPhone),
    supportHours: Object.keys(hours).length > 0 ? hours : undefined,
    riskPercent: text(form.riskPercent),
    riskAsOf: text(form.riskAsOf),
    leaders: form.leaders.map((leader) => ({
      name: leader.name.trim(),
      role: texts(leader.role),
      photoUrl: text(leader.photoUrl),
    })),
    partners: form.partners.map((partner) => ({ name: partner.name.trim(), url: text(partner.url) })),
    appStoreUrl: text(form.appStoreUrl),
    googlePlayUrl: text(form.googlePlayUrl),
    social: SOCIAL_NETWORKS.filter((network) => form.social[network].trim() !== '').map((network) => ({
      network,
      url: form.social[network].trim(),
    })),
  };
}

const CUSTOM: Record<string, keyof OperatorText['errors']> = {
  'company name first': 'companyFirst',
  'regulator first': 'regulatorFirst',
  'percent and date together': 'riskTogether',
  'https address': 'url',
  'path on this site': 'path',
  email: 'email',
  phone: 'phone',
  country: 'country',
  percent: 'percent',
  date: 'date',
  'plain text': 'text',
  'at least one language': 'required',
};

function messageOf(issue: { code: string; message?: string }, text: OperatorText): string {
  if (issue.code === 'too_small') return text.errors.required;
  if (issue.code === 'too_big') return text.errors.tooLong;
  const known = issue.message ? CUSTOM[issue.message] : undefined;
  return text.errors[known ?? 'invalid'];
}

function errorsOf(
  issues: readonly { path: string; code: string; message?: string }[],
  text: OperatorText,
): Errors {
  const errors: Errors = {};
  for (const issue of issues) errors[issue.path] ??= messageOf(issue, text);
  return errors;
}

function CountrySelect({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  const { language } = useBackOffice();
  const text = OPERATOR_TEXT[language];
  const id = useId();
  const options = useMemo(() => {
    const names = new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region', fallback: 'code' });
    const collator = new Intl.Collator(LANGUAGE_TAGS[language]);
    return COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      collator.compare(a.name, b.name),
    );
  }, [language]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{text.notSet}</option>
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.name}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Rows the staff member adds and removes (leaders, partners), each in a numbered group of its own. */
function RowGroups<Row extends { key: number }>({
  legend,
  rows,
  onChange,
  numbered,
  add,
  remove,
  newRow,
  renderRow,
}: {
  legend: string;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  numbered: (n: number) => string;
  add: string;
  remove: string;
  newRow: () => Row;
  renderRow: (row: Row, index: number, update: (next: Partial<Row>) => void) => ReactNode;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {rows.map((row, index) => (
        <fieldset key={row.key} className="row-group">
          <legend>{numbered(index + 1)}</legend>
          {renderRow(row, index, (next) =>
            onChange(rows.map((other) => (other.key === row.key ? { ...other, ...next } : other))),
          )}
          <div className="actions">
            <button type="button" onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
              {remove}
            </button>
          </div>
        </fieldset>
      ))}
      <div className="actions">
        <button type="button" onClick={() => onChange([...rows, newRow()])}>
          {add}
        </button>
      </div>
    </fieldset>
  );
}

/** A text in the staff member's language first, the other nine behind "Other languages". */
function LocalizedField({
  label,
  value,
  errors,
  path,
  onChange,
}: {
  label: string;
  value: Localized;
  errors: Errors;
  path: string;
  onChange: (value: Localized) => void;
}) {
  const { language } = useBackOffice();
  const text = OPERATOR_TEXT[language];
  const others = LANGUAGES.filter((l) => l !== language);
  const input = (l: Language, fieldLabel: string) => (
    <Field
      key={l}
      label={fieldLabel}
      lang={LANGUAGE_TAGS[l]}
      dir={l === 'ar' ? 'rtl' : 'ltr'}
      value={value[l]}
      maxLength={200}
      error={errors[`${path}.${l}`]}
      onChange={(event) => onChange({ ...value, [l]: event.target.value })}
    />
  );
  return (
    <fieldset className="localized">
      <legend>{label}</legend>
      <p className="hint">{text.hints.localized}</p>
      {errors[path] ? <p className="error-text">{errors[path]}</p> : null}
      {input(language, LANGUAGE_NAMES[language])}
      <details open={others.some((l) => value[l] !== '')}>
        <summary>{text.otherLanguages}</summary>
        {others.map((l) => input(l, LANGUAGE_NAMES[l]))}
      </details>
    </fieldset>
  );
}

/**
 * The operator identity screen (admin only): company, regulation, support, the risk figure,
 * leaders, partners, app-store and social links. Saving replaces the whole document; the server
 * audits every change. Mounted at /admin/settings/operator.
 */
export function OperatorSettings() {
  const { language } = useBackOffice();
  const text = OPERATOR_TEXT[language];
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [record, setRecord] = useState<OperatorSettingsRecord | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const [failure, setFailure] = useState('');
  const [loadFailure, setLoadFailure] = useState('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once; the text is only for the failure
  useEffect(() => {
    callAdmin('getOperatorSettings')
      .then((loaded) => {
        setRecord(loaded);
        setForm(formOf(loaded));
      })
      .catch((error: unknown) => setLoadFailure(failureMessage(error, text.errors.invalid)));
  }, []);

  if (!form || !record) {
    return (
      <section className="panel" aria-labelledby={headingId}>
        <h2 id={headingId}>{text.heading}</h2>
        {loadFailure ? (
          <Alert message={loadFailure} />
        ) : (
          <p role="status" className="muted">
            …
          </p>
        )}
      </section>
    );
  }

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm({ ...form, [key]: value });
    setStatus('idle');
  };
  const field = (
    key: Exclude<keyof Form, 'supportHours' | 'leaders' | 'partners' | 'social'>,
    extra = {},
  ) => (
    <Field
      label={text.fields[key as keyof OperatorText['fields']]}
      value={form[key]}
      error={errors[key]}
      onChange={(event) => set(key, event.target.value)}
      {...extra}
    />
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure('');
    const parsed = operatorSettings.safeParse(inputOf(form));
    if (!parsed.success) {
      setErrors(
        errorsOf(
          parsed.error.issues.map((issue) => ({
            path: issue.path.join('.'),
            code: issue.code,
            message: issue.message,
          })),
          text,
        ),
      );
      setFailure(text.fixErrors);
      setStatus('idle');
      return;
    }
    setErrors({});
    setStatus('saving');
    try {
      const saved = await callAdmin('setOperatorSettings', { body: parsed.data });
      setRecord(saved);
      setForm(formOf(saved));
      setStatus('saved');
    } catch (error) {
      setStatus('idle');
      if (error instanceof StaffApiError && error.code === 10026 && Array.isArray(error.data)) {
        setErrors(
          errorsOf(
            (error.data as { path: string; issue: string }[]).map((d) => ({ path: d.path, code: d.issue })),
            text,
          ),
        );
        setFailure(text.fixErrors);
      } else setFailure(failureMessage(error, text.errors.invalid));
    }
  };

  const sandbox = record.settings.companyName === undefined;
  return (
    <section className="panel operator-settings" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {text.heading}
      </h2>
      <p>{text.intro}</p>
      <p className={sandbox ? 'alert' : 'success'} data-sandbox={sandbox ? 'yes' : 'no'}>
        {sandbox ? text.sandboxOn : text.sandboxOff}
      </p>
      <p className="muted">
        {record.updatedAt
          ? fill(text.lastChanged, { at: formatTime(language, record.updatedAt), by: record.updatedBy ?? '' })
          : text.neverChanged}
      </p>
      <form className="stack" noValidate onSubmit={(event) => void submit(event)}>
        <fieldset>
          <legend>{text.sections.company}</legend>
          {field('companyName', { maxLength: 200, autoComplete: 'organization' })}
          {field('registrationNumber', { maxLength: 100 })}
          <CountrySelect
            label={text.fields.registrationCountry}
            value={form.registrationCountry}
            error={errors.registrationCountry}
            onChange={(value) => set('registrationCountry', value)}
          />
          {field('registeredAddress', { maxLength: 300 })}
        </fieldset>
        <fieldset>
          <legend>{text.sections.regulation}</legend>
          {field('regulator', { maxLength: 200 })}
          {field('licenceNumber', { maxLength: 100 })}
          {field('registerUrl', { type: 'url', inputMode: 'url', dir: 'ltr' })}
        </fieldset>
        <fieldset>
          <legend>{text.sections.support}</legend>
          {field('supportEmail', { type: 'email', inputMode: 'email', dir: 'ltr' })}
          {field('supportPhone', { type: 'tel', inputMode: 'tel', dir: 'ltr' })}
          <LocalizedField
            label={text.fields.supportHours}
            value={form.supportHours}
            errors={errors}
            path="supportHours"
            onChange={(value) => set('supportHours', value)}
          />
        </fieldset>
        <fieldset>
          <legend>{text.sections.risk}</legend>
          {field('riskPercent', { inputMode: 'decimal', dir: 'ltr', hint: text.hints.riskPercent })}
          {field('riskAsOf', { type: 'date' })}
        </fieldset>
        <RowGroups
          legend={text.sections.leaders}
          rows={form.leaders}
          onChange={(rows) => set('leaders', rows)}
          numbered={(n) => fill(text.leaderNumber, { n })}
          add={text.addLeader}
          remove={text.remove}
          newRow={() => ({ key: nextKey++, name: '', role: localized(undefined), photoUrl: '' })}
          renderRow={(leader, index, update) => (
            <>
              <Field
                label={text.fields.leaderName}
                value={leader.name}
                maxLength={120}
                error={errors[`leaders.${index}.name`]}
                onChange={(event) => update({ name: event.target.value })}
              />
              <LocalizedField
                label={text.fields.leaderRole}
                value={leader.role}
                errors={errors}
                path={`leaders.${index}.role`}
                onChange={(role) => update({ role })}
              />
              <Field
                label={text.fields.leaderPhoto}
                hint={text.hints.leaderPhoto}
                value={leader.photoUrl}
                dir="ltr"
                error={errors[`leaders.${index}.photoUrl`]}
                onChange={(event) => update({ photoUrl: event.target.value })}
              />
            </>
          )}
        />
        <RowGroups
          legend={text.sections.partners}
          rows={form.partners}
          onChange={(rows) => set('partners', rows)}
          numbered={(n) => fill(text.partnerNumber, { n })}
          add={text.addPartner}
          remove={text.remove}
          newRow={() => ({ key: nextKey++, name: '', url: '' })}
          renderRow={(partner, index, update) => (
            <>
              <Field
                label={text.fields.partnerName}
                value={partner.name}
                maxLength={120}
                error={errors[`partners.${index}.name`]}
                onChange={(event) => update({ name: event.target.value })}
              />
              <Field
                label={text.fields.partnerUrl}
                type="url"
                dir="ltr"
                value={partner.url}
                error={errors[`partners.${index}.url`]}
                onChange={(event) => update({ url: event.target.value })}
              />
            </>
          )}
        />
        <fieldset>
          <legend>{text.sections.apps}</legend>
          {field('appStoreUrl', { type: 'url', dir: 'ltr' })}
          {field('googlePlayUrl', { type: 'url', dir: 'ltr' })}
        </fieldset>
        <fieldset>
          <legend>{text.sections.social}</legend>
          {errors.social ? <p className="error-text">{errors.social}</p> : null}
          {SOCIAL_NETWORKS.map((network) => {
            const index = inputIndex(form, network);
            return (
              <Field
                key={network}
                label={SOCIAL_LABELS[network]}
                type="url"
                dir="ltr"
                value={form.social[network]}
                error={index === null ? undefined : errors[`social.${index}.url`]}
                onChange={(event) => set('social', { ...form.social, [network]: event.target.value })}
              />
            );
          })}
        </fieldset>
        <Alert message={failure} />
        {status === 'saved' ? (
          <p className="success" role="status">
            {text.saved}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={status === 'saving'}>
            {status === 'saving' ? text.saving : text.save}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Where a network's link sits in the submitted social list (for its error), or null when blank. */
function inputIndex(form: Form, network: SocialNetwork): number | null {
  const filled = SOCIAL_NETWORKS.filter((n) => form.social[n].trim() !== '');
  const index = filled.indexOf(network);
  return index === -1 ? null : index;
}

import { type OperatorSettingsRecord, SOCIAL_NETWORKS, type SocialNetwork } from '@swx/contract';
import { type FormEvent, type InputHTMLAttributes, useEffect, useId, useState } from 'react';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Alert, Field } from '../Field.tsx';
import { fill, formatTime } from '../text.ts';
import { CountrySelect, LocalizedField, RowGroups } from './OperatorFields.tsx';
import { OPERATOR_TEXT, type OperatorText } from './operator.text.ts';
import {
  checkForm,
  type Errors,
  type Form,
  formOf,
  inputIndex,
  localized,
  newKey,
  serverErrors,
} from './operatorForm.ts';

const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  x: 'X',
  telegram: 'Telegram',
  facebook: 'Facebook',
  youtube: 'YouTube',
};

type Status = 'idle' | 'saving' | 'saved';

/** What the form's parts are given: the form, its errors, a field's change, the screen's words. */
type At = {
  form: Form;
  errors: Errors;
  set: <K extends keyof Form>(key: K, value: Form[K]) => void;
  text: OperatorText;
};

/** The document loaded once, the form of it, and its save: checked by the contract, then the server. */
function useOperatorForm(text: OperatorText) {
  const [record, setRecord] = useState<OperatorSettingsRecord | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [status, setStatus] = useState<Status>('idle');
  const [failure, setFailure] = useState('');
  const [loadFailure, setLoadFailure] = useState('');
  const show = (loaded: OperatorSettingsRecord) => {
    setRecord(loaded);
    setForm(formOf(loaded));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once; the text is only for the failure
  useEffect(() => {
    callAdmin('getOperatorSettings')
      .then(show)
      .catch((error: unknown) => setLoadFailure(failureMessage(error, text.errors.invalid)));
  }, []);
  const invalid = (found: Errors) => {
    setErrors(found);
    setFailure(text.fixErrors);
    setStatus('idle');
  };
  const submit = async (current: Form) => {
    setFailure('');
    const checked = checkForm(current, text);
    if (!checked.ok) return invalid(checked.errors);
    setErrors({});
    setStatus('saving');
    try {
      show(await callAdmin('setOperatorSettings', { body: checked.body }));
      setStatus('saved');
    } catch (error) {
      const found = serverErrors(error, text);
      if (found) invalid(found);
      else {
        setStatus('idle');
        setFailure(failureMessage(error, text.errors.invalid));
      }
    }
  };
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((old) => (old ? { ...old, [key]: value } : old));
    setStatus('idle');
  };
  return { record, form, errors, status, failure, loadFailure, submit, set };
}

type TextKey = Exclude<keyof Form, 'supportHours' | 'leaders' | 'partners' | 'social'>;

/** A plain text field of the form, labelled by its name. */
function TextField({
  at,
  name,
  ...extra
}: { at: At; name: TextKey; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field
      label={at.text.fields[name as keyof OperatorText['fields']]}
      value={at.form[name]}
      error={at.errors[name]}
      onChange={(event) => at.set(name, event.target.value)}
      {...extra}
    />
  );
}

/** Who the operator is: company, regulation, support (hours in every language), the risk figure. */
function IdentitySections({ at }: { at: At }) {
  const { text, form, errors, set } = at;
  return (
    <>
      <fieldset>
        <legend>{text.sections.company}</legend>
        <TextField at={at} name="companyName" maxLength={200} autoComplete="organization" />
        <TextField at={at} name="registrationNumber" maxLength={100} />
        <CountrySelect
          label={text.fields.registrationCountry}
          value={form.registrationCountry}
          error={errors.registrationCountry}
          onChange={(value) => set('registrationCountry', value)}
        />
        <TextField at={at} name="registeredAddress" maxLength={300} />
      </fieldset>
      <fieldset>
        <legend>{text.sections.regulation}</legend>
        <TextField at={at} name="regulator" maxLength={200} />
        <TextField at={at} name="licenceNumber" maxLength={100} />
        <TextField at={at} name="registerUrl" type="url" inputMode="url" dir="ltr" />
      </fieldset>
      <fieldset>
        <legend>{text.sections.support}</legend>
        <TextField at={at} name="supportEmail" type="email" inputMode="email" dir="ltr" />
        <TextField at={at} name="supportPhone" type="tel" inputMode="tel" dir="ltr" />
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
        <TextField at={at} name="riskPercent" inputMode="decimal" dir="ltr" hint={text.hints.riskPercent} />
        <TextField at={at} name="riskAsOf" type="date" />
      </fieldset>
    </>
  );
}

/** The leaders: name, role in every language, photo. */
function LeaderGroups({ at }: { at: At }) {
  const { text, errors } = at;
  return (
    <RowGroups
      legend={text.sections.leaders}
      rows={at.form.leaders}
      onChange={(rows) => at.set('leaders', rows)}
      numbered={(n) => fill(text.leaderNumber, { n })}
      add={text.addLeader}
      remove={text.remove}
      newRow={() => ({ key: newKey(), name: '', role: localized(undefined), photoUrl: '' })}
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
  );
}

/** The partners: name and site. */
function PartnerGroups({ at }: { at: At }) {
  const { text, errors } = at;
  return (
    <RowGroups
      legend={text.sections.partners}
      rows={at.form.partners}
      onChange={(rows) => at.set('partners', rows)}
      numbered={(n) => fill(text.partnerNumber, { n })}
      add={text.addPartner}
      remove={text.remove}
      newRow={() => ({ key: newKey(), name: '', url: '' })}
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
  );
}

/** The app stores' links and one link per social network. */
function LinkSections({ at }: { at: At }) {
  const { text, form, errors } = at;
  return (
    <>
      <fieldset>
        <legend>{text.sections.apps}</legend>
        <TextField at={at} name="appStoreUrl" type="url" dir="ltr" />
        <TextField at={at} name="googlePlayUrl" type="url" dir="ltr" />
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
              onChange={(event) => at.set('social', { ...form.social, [network]: event.target.value })}
            />
          );
        })}
      </fieldset>
    </>
  );
}

/** Whether the site runs as a sandbox (no company set), and who changed the settings last. */
function SettingsState({ record }: { record: OperatorSettingsRecord }) {
  const { language } = useBackOffice();
  const text = OPERATOR_TEXT[language];
  const sandbox = record.settings.companyName === undefined;
  return (
    <>
      <p className={sandbox ? 'alert' : 'success'} data-sandbox={sandbox ? 'yes' : 'no'}>
        {sandbox ? text.sandboxOn : text.sandboxOff}
      </p>
      <p className="muted">
        {record.updatedAt
          ? fill(text.lastChanged, { at: formatTime(language, record.updatedAt), by: record.updatedBy ?? '' })
          : text.neverChanged}
      </p>
    </>
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
  const { record, form, errors, status, failure, loadFailure, submit, set } = useOperatorForm(text);
  if (!form || !record)
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
  const at: At = { form, errors, set, text };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(form);
  };
  return (
    <section className="panel operator-settings" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {text.heading}
      </h2>
      <p>{text.intro}</p>
      <SettingsState record={record} />
      <form className="stack" noValidate onSubmit={onSubmit}>
        <IdentitySections at={at} />
        <LeaderGroups at={at} />
        <PartnerGroups at={at} />
        <LinkSections at={at} />
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

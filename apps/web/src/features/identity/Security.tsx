import { Code } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { use, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { copyText } from '../../ui/copy.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { QrCode } from '../../ui/QrCode.tsx';
import { messageOf } from './fields.tsx';
import { identityQueries } from './queries.ts';
import { Sessions } from './Sessions.tsx';
import './identity.css';
import { identityTexts } from './texts.ts';

/** Moves focus to a heading when it appears, so keyboard and screen-reader users follow each step. */
function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState('');
  return (
    <span className="copy">
      <button
        type="button"
        className="button ghost small"
        onClick={async () =>
          setMessage((await copyText(text)) ? t('security.totp.copied') : t('security.totp.copyFailed'))
        }
      >
        {label}
      </button>
      <span className="small muted" role="status" aria-live="polite">
        {message}
      </span>
    </span>
  );
}

/** Step 1 of turning 2FA on: the key as a QR code, as text (with its copy button) and as an otpauth link. */
function SetupKey({ secret, uri }: { secret: string; uri: string }) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const grouped = secret.replace(/(.{4})(?=.)/g, '$1 ');
  return (
    <>
      <h3 ref={heading} tabIndex={-1}>
        {t('security.totp.step1')}
      </h3>
      <figure className="totp-qr-box">
        <QrCode text={uri} label={t('security.totp.qrLabel')} className="totp-qr" testId="totp-qr" />
        <figcaption className="small">{t('security.totp.qrHint')}</figcaption>
      </figure>
      <p className="muted">{t('security.totp.step1Hint')}</p>
      <dl className="totp-key">
        <dt className="small muted">{t('security.totp.secretLabel')}</dt>
        <dd>
          <code className="totp-secret" data-testid="totp-secret">
            {grouped}
          </code>
        </dd>
      </dl>
      <p className="row">
        <CopyButton text={secret} label={t('security.totp.copySecret')} />
        <a className="button ghost small" href={uri}>
          {t('security.totp.openLink')}
        </a>
      </p>
    </>
  );
}

/** Step 2: a code from the app turns 2FA on (a wrong code is said under the field). */
function EnableForm({ onEnabled, onCancel }: { onEnabled: (codes: string[]) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState('');
  const enable = useMutation({
    mutationFn: (value: string) => callApi('enableTotp', { body: { code: value } }),
    onSuccess: (data) => onEnabled(data.recoveryCodes),
    onError: (failed) => {
      if (failed instanceof ApiFailure && failed.code === Code.VERIFICATION_CODE_WRONG)
        setError(failed.message);
      else setFailure(messageOf(failed, t('state.error')));
    },
  });
  return (
    <form
      className="pass-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setFailure('');
        const value = code.trim();
        if (!/^\d{6}$/.test(value)) {
          setError(t('security.login.enterCode'));
          return;
        }
        setError(undefined);
        enable.mutate(value);
      }}
    >
      <h3>{t('security.totp.step2')}</h3>
      <Field
        label={t('security.totp.code')}
        name="totp"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        error={error}
        onChange={(e) => setCode(e.target.value)}
      />
      <SubmitOrCancel
        failure={failure}
        submit={t('security.totp.enable')}
        busy={enable.isPending}
        onCancel={onCancel}
      />
    </form>
  );
}

/** Step 1 and 2 of turning 2FA on: the key (QR code, text and otpauth link), then a code from the app. */
function SetupPanel({
  secret,
  uri,
  onEnabled,
  onCancel,
}: {
  secret: string;
  uri: string;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  return (
    <div className="totp-setup">
      <SetupKey secret={secret} uri={uri} />
      <EnableForm onEnabled={onEnabled} onCancel={onCancel} />
    </div>
  );
}

/** The end of a 2FA form: its failure, then submit and cancel. */
function SubmitOrCancel({
  failure,
  submit,
  busy,
  onCancel,
}: {
  failure: string;
  submit: string;
  busy: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormError message={failure} />
      <div className="row">
        <button type="submit" className="button primary" disabled={busy}>
          {submit}
        </button>
        <button type="button" className="button ghost" onClick={onCancel}>
          {t('security.totp.cancel')}
        </button>
      </div>
    </>
  );
}

/** The recovery codes, shown once right after 2FA is turned on. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="recovery-panel" data-testid="recovery-codes">
      <h3 ref={heading} tabIndex={-1}>
        {t('security.totp.recoveryTitle')}
      </h3>
      <p>{t('security.totp.recoveryText')}</p>
      <ol className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className="row">
        <CopyButton text={codes.join('\n')} label={t('security.totp.copy')} />
      </p>
      <button type="button" className="button primary" onClick={onDone}>
        {t('security.totp.saved')}
      </button>
    </div>
  );
}

/** Turning 2FA off: the password and a code from the app or a recovery code. */
function DisableForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [form, setForm] = useState({ password: '', code: '' });
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [failure, setFailure] = useState('');
  const disable = useMutation({
    mutationFn: () => callApi('disableTotp', { body: { password: form.password, code: form.code.trim() } }),
    onSuccess: onDone,
    onError: (failed) => {
      if (failed instanceof ApiFailure && failed.code === Code.WRONG_PASSWORD)
        setErrors({ password: failed.message });
      else if (failed instanceof ApiFailure && failed.code === Code.VERIFICATION_CODE_WRONG)
        setErrors({ code: failed.message });
      else setFailure(messageOf(failed, t('state.error')));
    },
  });
  return (
    <form
      className="pass-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setFailure('');
        const next: typeof errors = {};
        if (!form.password) next.password = t('auth.error.enterPassword');
        if (form.code.trim().length < 6) next.code = t('security.login.enterCode');
        setErrors(next);
        if (Object.keys(next).length === 0) disable.mutate();
      }}
    >
      <h3 ref={heading} tabIndex={-1}>
        {t('security.totp.disableTitle')}
      </h3>
      <p className="muted">{t('security.totp.disableHint')}</p>
      <Field
        label={t('auth.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        value={form.password}
        error={errors.password}
        onChange={(e) => setForm((f) => ({ ...f, password: e.target.value }))}
      />
      <Field
        label={t('security.totp.codeOrRecovery')}
        name="code"
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={40}
        value={form.code}
        error={errors.code}
        onChange={(e) => setForm((f) => ({ ...f, code: e.target.value }))}
      />
      <SubmitOrCancel
        failure={failure}
        submit={t('security.totp.disableSubmit')}
        busy={disable.isPending}
        onCancel={onCancel}
      />
    </form>
  );
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'setup'; secret: string; uri: string }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' };

/** 2FA is on: the recovery codes left, and turning it off. */
function TwoFactorOn({
  codesLeft,
  disabling,
  onDisable,
  onCancel,
  onDisabled,
}: {
  codesLeft: number;
  disabling: boolean;
  onDisable: () => void;
  onCancel: () => void;
  onDisabled: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <p className="totp-state on">
        <span className="badge on">{t('security.totp.onBadge')}</span> {t('security.totp.on')}
      </p>
      <p className="muted small">{t('security.totp.codesLeft', { count: codesLeft })}</p>
      {disabling ? (
        <DisableForm onCancel={onCancel} onDone={onDisabled} />
      ) : (
        <button type="button" className="button ghost" onClick={onDisable}>
          {t('security.totp.disable')}
        </button>
      )}
    </>
  );
}

/** 2FA is off: what it is, and the button that asks the server for a new key. */
function TwoFactorOff({ onKey }: { onKey: (key: { secret: string; uri: string }) => void }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState('');
  const setup = useMutation({
    mutationFn: () => callApi('setupTotp'),
    onSuccess: (data) => onKey({ secret: data.secret, uri: data.uri }),
    onError: (failed) => setFailure(messageOf(failed, t('state.error'))),
  });
  return (
    <>
      <p className="totp-state">
        <span className="badge">{t('security.totp.offBadge')}</span> {t('security.totp.off')}
      </p>
      <p className="muted">{t('security.totp.intro')}</p>
      <FormError message={failure} />
      <button
        type="button"
        className="button primary"
        disabled={setup.isPending}
        onClick={() => {
          setFailure('');
          setup.mutate();
        }}
      >
        {t('security.totp.setUp')}
      </button>
    </>
  );
}

function TwoFactor({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [notice, setNotice] = useState('');
  const status = useQuery(identityQueries.totp(userId));
  const refresh = () => queryClient.invalidateQueries({ queryKey: identityQueries.totp(userId).queryKey });
  const idle = () => setPhase({ kind: 'idle' });
  const done = (said?: string) => {
    idle();
    if (said !== undefined) setNotice(said);
    void refresh();
  };

  let body: React.ReactNode;
  if (phase.kind === 'codes') body = <RecoveryCodes codes={phase.codes} onDone={() => done()} />;
  else if (status.isPending) body = <Loading />;
  else if (status.isError)
    body = <Failed message={status.error.message} onRetry={() => void status.refetch()} />;
  else if (status.data.enabled)
    body = (
      <TwoFactorOn
        codesLeft={status.data.recoveryCodesLeft}
        disabling={phase.kind === 'disable'}
        onDisable={() => setPhase({ kind: 'disable' })}
        onCancel={idle}
        onDisabled={() => done(t('security.totp.disabled'))}
      />
    );
  else if (phase.kind === 'setup')
    body = (
      <SetupPanel
        secret={phase.secret}
        uri={phase.uri}
        onCancel={idle}
        onEnabled={(codes) => {
          setNotice(t('security.totp.enabled'));
          setPhase({ kind: 'codes', codes });
        }}
      />
    );
  else
    body = (
      <TwoFactorOff
        onKey={(key) => {
          setNotice('');
          setPhase({ kind: 'setup', ...key });
        }}
      />
    );
  return (
    <section className="card security-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('security.totp.title')}</h2>
      <p className="form-notice-slot" role="status" aria-live="polite">
        {notice ? <span className="form-notice">{notice}</span> : null}
      </p>
      {body}
    </section>
  );
}

/** Security: two-step verification (set up, recovery codes, turn off) and the signed-in devices. */
export default function Security() {
  use(identityTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.security')}>
      {user ? (
        <div className="security-page">
          <TwoFactor userId={user.id} />
          <Sessions userId={user.id} />
        </div>
      ) : null}
    </AccountPage>
  );
}

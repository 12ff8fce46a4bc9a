import type { Language } from '@swx/contract';
import { type ReactNode, type TextareaHTMLAttributes, use, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod/mini';
import { addFeatureTexts, formatNumber, type Texts } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { CopyButton as SharedCopyButton } from '../../ui/CopyButton.tsx';
import { Field, FormError, useFieldNotes } from '../../ui/Field.tsx';
import { focusElement, focusFirstInvalid } from '../../ui/focus.ts';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { loadVault, onVaultChange, vaultsChanged } from './store.ts';
import { openVault, PASSPHRASE_MIN, type VaultRecord, WrongPassphrase } from './vault.ts';
import '../../ui/wallet-page.css';
import './custody.css';

/**
 * The self-custody wallet's screens share: their texts, the page (logged in, texts loaded), this
 * device's vault for the customer, the passphrase forms, the words box and the copy button.
 */
const files = import.meta.glob<Texts>('./locales/*.json', { import: 'default' });

export const custodyTexts = addFeatureTexts((language: Language) => {
  const load = files[`./locales/${language}.json`];
  if (!load) throw new Error(`no custody texts for ${language}`);
  return load();
});

/** A custody screen: an account page whose body gets the logged-in customer's id. */
export function CustodyPage({
  title,
  book,
  children,
}: {
  title: string;
  book?: boolean;
  children: (customerId: number) => ReactNode;
}) {
  use(custodyTexts);
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={title} book={book ?? false}>
      {user ? <div className="wallet-page custody-page">{children(user.id)}</div> : null}
    </AccountPage>
  );
}

export type VaultState =
  | { status: 'loading' }
  | { status: 'none' }
  | { status: 'ready'; record: VaultRecord }
  | { status: 'failed' };

/** This customer's vault on this device, read again after every change (IndexedDB; never the query cache). */
export function useVault(customerId: number): VaultState & { reload: () => void } {
  const [state, setState] = useState<VaultState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    const read = () =>
      loadVault(customerId).then(
        (record) => live && setState(record ? { status: 'ready', record } : { status: 'none' }),
        () => live && setState({ status: 'failed' }),
      );
    void read();
    const stop = onVaultChange(() => void read());
    return () => {
      live = false;
      stop();
    };
  }, [customerId]);
  return { ...state, reload: () => vaultsChanged() };
}

/** The loading, failed and "no wallet here" states of a screen that needs the vault. */
export function WithVault({
  customerId,
  children,
}: {
  customerId: number;
  children: (record: VaultRecord) => ReactNode;
}) {
  const { t } = useTranslation();
  const vault = useVault(customerId);
  if (vault.status === 'loading') return <Loading />;
  if (vault.status === 'failed')
    return <Failed message={t('custody.storageFailed')} onRetry={vault.reload} />;
  if (vault.status === 'none')
    return (
      <section className="card" data-testid="custody-none">
        <p>{t('custody.noWallet')}</p>
        <BackToWallet />
      </section>
    );
  return children(vault.record);
}

/**
 * What is known of the backup, as it happened: words re-entered from the written copy, the whole
 * phrase typed in to restore the wallet, either of the two (a record kept before the way was
 * recorded), or not checked yet.
 */
export function backupStateOf(record: VaultRecord): 'verified' | 'restored' | 'confirmed' | 'notVerified' {
  if (!record.backupVerified) return 'notVerified';
  if (record.origin === 'restored') return 'restored';
  return record.origin === 'created' ? 'verified' : 'confirmed';
}

/** The backup's state in words, with its mark. */
export function BackupState({ record }: { record: VaultRecord }) {
  const { t } = useTranslation();
  const state = backupStateOf(record);
  return (
    <p
      className="custody-backup"
      data-testid="backup-state"
      data-verified={record.backupVerified}
      data-state={state}
    >
      <span className="custody-mark" aria-hidden="true" data-ok={record.backupVerified} />
      {t(`custody.backup.${state}`)}
    </p>
  );
}

export function BackToWallet() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/profile/wallet">{t('custody.back')}</Link>
    </p>
  );
}

/** Moves focus to a step's heading when the step changes (the page itself does not navigate). */
export function useStepFocus(step: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (step && heading.current) focusElement(heading.current);
  }, [step]);
  return heading;
}

const unlockBody = z.object({ passphrase: z.string().check(z.minLength(1)) });

/**
 * The passphrase that opens the vault, then `onOpen` with the words (kept by the caller only as
 * long as it needs them). A wrong one is said under the field.
 */
export function UnlockForm({
  record,
  submitLabel,
  onOpen,
  children,
}: {
  record: VaultRecord;
  submitLabel: string;
  onOpen: (mnemonic: string) => Promise<void> | void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useContractForm({
    schema: unlockBody,
    initial: { passphrase: '' },
    toBody: (values) => values,
    message: () => t('custody.passphrase.enter'),
    submit: async ({ passphrase }) => {
      let mnemonic: string;
      try {
        mnemonic = await openVault(record, passphrase);
      } catch (error) {
        if (!(error instanceof WrongPassphrase)) throw error;
        form.setErrors({ passphrase: t('custody.passphrase.wrong') });
        focusFirstInvalid(formRef.current);
        return;
      }
      form.reset();
      await onOpen(mnemonic);
    },
  });
  return (
    <form
      ref={formRef}
      className="card pass-form custody-form"
      noValidate
      data-testid="unlock"
      onSubmit={(e) => void form.onSubmit(e)}
    >
      {children}
      <Field
        label={t('custody.passphrase.label')}
        type="password"
        autoComplete="off"
        spellCheck={false}
        {...form.field('passphrase')}
      />
      <FormError message={form.failure} />
      <SubmitButton busy={form.busy}>
        {form.busy ? t('custody.passphrase.opening') : submitLabel}
      </SubmitButton>
    </form>
  );
}

const newPassphraseBody = z.object({
  passphrase: z.string().check(z.minLength(PASSPHRASE_MIN)),
  passphrase2: z.string(),
});

/** A new passphrase, twice (at least 10 characters); `onChosen` seals the vault with it. */
export function NewPassphraseForm({
  submitLabel,
  onChosen,
  children,
}: {
  submitLabel: string;
  onChosen: (passphrase: string) => Promise<void>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const min = formatNumber(language, PASSPHRASE_MIN);
  const form = useContractForm({
    schema: newPassphraseBody,
    initial: { passphrase: '', passphrase2: '' },
    toBody: (values) => values,
    message: (field, _issue, values) =>
      field === 'passphrase'
        ? values.passphrase
          ? t('custody.passphrase.short', { min })
          : t('custody.passphrase.enter')
        : undefined,
    check: (values) =>
      values.passphrase2 === values.passphrase
        ? {}
        : {
            passphrase2: values.passphrase2
              ? t('custody.passphrase.mismatch')
              : t('custody.passphrase.enterAgain'),
          },
    submit: async ({ passphrase }) => {
      try {
        await onChosen(passphrase);
      } catch {
        form.setFailure(t('custody.storageFailed'));
      }
    },
  });
  return (
    <form
      className="card pass-form custody-form"
      noValidate
      data-testid="new-passphrase"
      onSubmit={(e) => void form.onSubmit(e)}
    >
      {children}
      <Field
        label={t('custody.passphrase.label')}
        hint={t('custody.passphrase.hint', { min })}
        type="password"
        autoComplete="off"
        spellCheck={false}
        {...form.field('passphrase')}
      />
      <Field
        label={t('custody.passphrase.repeat')}
        type="password"
        autoComplete="off"
        spellCheck={false}
        {...form.field('passphrase2')}
      />
      <FormError message={form.failure} />
      <SubmitButton busy={form.busy}>{form.busy ? t('custody.passphrase.saving') : submitLabel}</SubmitButton>
    </form>
  );
}

/** A labelled multi-line field (the words), with its hint and error tied to it. */
export function TextArea({
  label,
  hint,
  error,
  ...area
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
} & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, describedBy, notes } = useFieldNotes(hint, error);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        className="control custody-words-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...area}
      />
      {notes}
    </div>
  );
}

/** The shared copy button, saying the outcome in this feature's words. */
export function CopyButton(props: { text: string; label: string; name?: string }) {
  const { t } = useTranslation();
  return (
    <SharedCopyButton {...props} said={{ copied: t('custody.copied'), failed: t('custody.copyFailed') }} />
  );
}

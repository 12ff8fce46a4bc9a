import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { formatNumber } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { challengePassed, challengePositions, normalizeMnemonic } from './keys.ts';

const body = z.object({
  first: z.string().check(z.trim(), z.minLength(1)),
  second: z.string().check(z.trim(), z.minLength(1)),
  third: z.string().check(z.trim(), z.minLength(1)),
});
const FIELDS = ['first', 'second', 'third'] as const;

/**
 * The backup check (spec §5): the words at three random positions the app names, typed from the
 * customer's written copy. `onPassed` when all three match.
 */
export function VerifyWords({
  mnemonic,
  onPassed,
  children,
}: {
  mnemonic: string;
  onPassed: () => Promise<void> | void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const [positions] = useState(() => challengePositions(normalizeMnemonic(mnemonic).split(' ').length));
  const form = useContractForm({
    schema: body,
    initial: { first: '', second: '', third: '' },
    toBody: (values) => values,
    message: () => t('custody.verify.enter'),
    submit: async (typed) => {
      if (!challengePassed(mnemonic, positions, [typed.first, typed.second, typed.third])) {
        form.setFailure(t('custody.verify.wrong'));
        return;
      }
      await onPassed();
    },
  });
  return (
    <form
      className="card pass-form custody-form"
      noValidate
      data-testid="verify-words"
      data-positions={positions.map((p) => p + 1).join(',')}
      onSubmit={(e) => void form.onSubmit(e)}
    >
      <p>{t('custody.verify.text')}</p>
      {FIELDS.map((field, i) => (
        <Field
          key={field}
          label={t('custody.verify.word', { n: formatNumber(language, (positions[i] as number) + 1) })}
          data-position={(positions[i] as number) + 1}
          dir="ltr"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...form.field(field)}
        />
      ))}
      <FormError message={form.failure} />
      <button type="submit" className="button primary large block" disabled={form.busy}>
        {t('custody.verify.submit')}
      </button>
      {children}
    </form>
  );
}

import { LANGUAGE_TAGS, type Language } from '@swx/contract';
import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { formatNumber } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { focusFirstInvalid } from '../../ui/focus.ts';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { challengeMismatches, challengePositions, normalizeMnemonic } from './words.ts';

const body = z.object({
  first: z.string().check(z.trim(), z.minLength(1)),
  second: z.string().check(z.trim(), z.minLength(1)),
  third: z.string().check(z.trim(), z.minLength(1)),
});
const FIELDS = ['first', 'second', 'third'] as const;

/** Word numbers as the reader's language lists them ("3, 7 and 11"). */
const listOf = (language: Language, numbers: readonly string[]) =>
  new Intl.ListFormat(LANGUAGE_TAGS[language], { type: 'conjunction' }).format(numbers);

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
  const formRef = useRef<HTMLFormElement>(null);
  const form = useContractForm({
    schema: body,
    initial: { first: '', second: '', third: '' },
    toBody: (values) => values,
    message: () => t('custody.verify.enter'),
    submit: async (typed) => {
      const wrong = challengeMismatches(mnemonic, positions, [typed.first, typed.second, typed.third]);
      if (wrong.length === 0) return onPassed();
      // Which word is wrong: flagged on its field (aria-invalid, its message tied to it) and
      // said in the form's alert, by its number in the phrase.
      const numbers = wrong.map((i) => formatNumber(language, (positions[i] as number) + 1));
      form.setErrors(
        Object.fromEntries(
          wrong.map((i, k) => [FIELDS[i], t('custody.verify.wordWrong', { n: numbers[k] })]),
        ),
      );
      form.setFailure(
        wrong.length === 1
          ? t('custody.verify.wrongOne', { n: numbers[0] })
          : t('custody.verify.wrongSome', { list: listOf(language, numbers) }),
      );
      focusFirstInvalid(formRef.current);
    },
  });
  return (
    <form
      ref={formRef}
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
      <SubmitButton busy={form.busy}>{t('custody.verify.submit')}</SubmitButton>
      {children}
    </form>
  );
}

import { Code, type FieldIssue, fieldIssue } from '@swx/contract';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { focusFirstInvalid } from '../focus.ts';

/** A zod schema of the contract, as far as the form needs it (zod/mini's `safeParse`). */
export type ContractSchema<Out> = {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Out }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; code: string }[] } };
};

export type Values<F extends string> = Record<F, string>;
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** One problem with one part of a body: a zod issue, or one of a 10026 answer's `{path, issue}`. */
export type Issue = FieldIssue;

/** What the schema says of a body: its issues (path joined with dots, zod's code), or the parsed body. */
export function checkBody<Out>(
  schema: ContractSchema<Out>,
  body: unknown,
): { ok: true; body: Out } | { ok: false; issues: Issue[] } {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, body: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), issue: i.code })),
  };
}

/** The issues of a server refusal: a 10026 answer's `data`, `[{path, issue}]`; none for anything else. */
export function refusalIssues(error: unknown): Issue[] {
  if (!(error instanceof ApiFailure) || error.code !== Code.INVALID_INPUT || !Array.isArray(error.data))
    return [];
  return error.data.flatMap((item) => {
    const parsed = fieldIssue.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The worded error of each field named by some issues (a path's first part is the field; the
 * first worded issue per field wins). An issue nobody words is left out.
 */
export function wordIssues<F extends string>(
  issues: readonly Issue[],
  fields: readonly F[],
  message: (field: F, issue: string, values: Values<F>) => string | undefined,
  values: Values<F>,
): FieldErrors<F> {
  const found: FieldErrors<F> = {};
  for (const { path, issue } of issues) {
    const field = fields.find((name) => name === path.split('.')[0]);
    if (field === undefined || found[field] !== undefined) continue;
    const text = message(field, issue, values);
    if (text !== undefined) found[field] = text;
  }
  return found;
}

export type ContractFormOptions<F extends string, Out> = {
  /** The call's body schema, from the contract (the same the server checks). */
  schema: ContractSchema<Out>;
  initial: Values<F>;
  /** The body the form sends, from what was typed; the schema checks it and gives it trimmed. */
  toBody: (values: Values<NoInfer<F>>) => unknown;
  /**
   * The localized message of an issue with a field: `issue` is the zod code (`too_small`,
   * `invalid_format`, `custom`, …). `undefined` leaves it to the server: the body is sent, and its
   * refusal (in the reader's language) becomes the form's error.
   */
  message: (field: NoInfer<F>, issue: string, values: Values<NoInfer<F>>) => string | undefined;
  /** Checks a body schema cannot state (the repeated password, a username's letters). */
  check?: (values: Values<NoInfer<F>>) => FieldErrors<NoInfer<F>>;
  /** Refusal codes that belong to one field: the server's message shows under it (10004 → the password). */
  codeFields?: Partial<Record<number, NoInfer<F>>>;
  /** Sends the body the schema accepted. Throwing an ApiFailure shows it on the fields or the form. */
  submit: (body: Out) => Promise<void>;
};

/**
 * One form over a contract call: its values, field errors, form error, notice and busy state.
 * Submitting validates with the call's zod schema (plus `check`) and puts each issue under its
 * field; the server's 10026 answer (`data: [{path, issue}]`) lands on the fields the same way.
 * `field(name)` gives a field component its name, value, error and change handler.
 */
export function useContractForm<F extends string, Out>(options: ContractFormOptions<F, Out>) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Values<F>>(options.initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [failure, setFailure] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const fields = Object.keys(options.initial) as F[];
  /** The form last submitted or acted in: focus goes to its first invalid field (WCAG 3.3.1). */
  const formElement = useRef<HTMLFormElement | null>(null);
  const focusInvalid = () =>
    focusFirstInvalid(document.activeElement?.closest('form') ?? formElement.current);
  const word = (issues: readonly Issue[]) => wordIssues(issues, fields, options.message, values);

  /**
   * Checks the values as the server will: the errors of every field (or of `only` these, when
   * one step sends part of the form), shown; the body when no field has one.
   */
  const validate = (only?: readonly F[]): { body: Out | unknown; errors: FieldErrors<F> } => {
    const raw = options.toBody(values);
    const checked = checkBody(options.schema, raw);
    const found = { ...options.check?.(values), ...word(checked.ok ? [] : checked.issues) };
    const shown: FieldErrors<F> = {};
    for (const field of only ?? fields) if (found[field] !== undefined) shown[field] = found[field];
    setErrors(shown);
    if (Object.keys(shown).length > 0) focusInvalid();
    // An issue the form does not word goes to the server as typed, which refuses it in words.
    return { body: checked.ok ? checked.body : raw, errors: shown };
  };

  /** A refusal on the fields it names (10026 issues, `codeFields`), else as the form's error. */
  const showFailure = (error: unknown) => {
    if (error instanceof ApiFailure) {
      const field = options.codeFields?.[error.code];
      if (field !== undefined) {
        setErrors({ [field]: error.message } as FieldErrors<F>);
        focusInvalid();
        return;
      }
      const found = word(refusalIssues(error));
      if (Object.keys(found).length > 0) {
        setErrors(found);
        focusInvalid();
        return;
      }
      setFailure(error.message);
      return;
    }
    setFailure(t('state.error'));
  };

  // Messages follow the current language: on a change, the form's own errors are worded again in
  // it, and what the server said (in the former language) is cleared.
  const language = i18n.language;
  const wordedIn = useRef(language);
  const reword = useRef(() => {});
  reword.current = () => {
    const checked = checkBody(options.schema, options.toBody(values));
    const found = { ...options.check?.(values), ...word(checked.ok ? [] : checked.issues) };
    setErrors((shown) => {
      const next: FieldErrors<F> = {};
      for (const field of Object.keys(shown) as F[])
        if (found[field] !== undefined) next[field] = found[field];
      return next;
    });
    setFailure('');
    setNotice('');
  };
  useEffect(() => {
    if (wordedIn.current === language) return;
    wordedIn.current = language;
    reword.current();
  }, [language]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (event.currentTarget instanceof HTMLFormElement) formElement.current = event.currentTarget;
    setFailure('');
    const { body, errors: found } = validate();
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await options.submit(body as Out);
    } catch (error) {
      showFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const setValue = (name: F, value: string) => setValues((current) => ({ ...current, [name]: value }));

  return {
    values,
    errors,
    failure,
    notice,
    busy,
    setValue,
    setErrors,
    setFailure,
    setNotice,
    validate,
    showFailure,
    onSubmit,
    /** No field error, form error or notice (another way of answering was chosen). */
    clearMessages: () => {
      setErrors({});
      setFailure('');
      setNotice('');
    },
    /** Back to `next` (or the first values), with no error or notice. */
    reset: (next: Values<F> = options.initial) => {
      setValues(next);
      setErrors({});
      setFailure('');
      setNotice('');
    },
    /** The props of a text field bound to one value. */
    field: (name: F) => ({
      name,
      value: values[name],
      error: errors[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.value),
    }),
  };
}

/**
 * What a shared field component needs of a form holding (at least) the fields K: any
 * `useContractForm` over a superset of K fits, so one component serves every form that has them.
 */
export type FormBinding<K extends string> = {
  values: Values<K>;
  errors: FieldErrors<K>;
  setValue: (name: K, value: string) => void;
  field: (name: K) => {
    name: string;
    value: string;
    error: string | undefined;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  };
  clearMessages: () => void;
  setFailure: (message: string) => void;
  setNotice: (message: string) => void;
  showFailure: (error: unknown) => void;
  validate: (only?: readonly K[]) => { errors: FieldErrors<K> };
};

import { Code, type FieldIssue, fieldIssue } from '@swx/contract';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { announce } from '../announce.ts';
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
 * What the form finds in the values, as the server will: `check`'s errors and the schema's issues
 * worded; the body the schema gave, else the raw one (an issue the form does not word goes to the
 * server as typed, which refuses it in words).
 */
function findErrors<F extends string, Out>(
  options: ContractFormOptions<F, Out>,
  fields: readonly F[],
  values: Values<F>,
): { body: Out | unknown; found: FieldErrors<F> } {
  const raw = options.toBody(values);
  const checked = checkBody(options.schema, raw);
  const worded = wordIssues(checked.ok ? [] : checked.issues, fields, options.message, values);
  return { body: checked.ok ? checked.body : raw, found: { ...options.check?.(values), ...worded } };
}

/** Where a refusal goes: under the field of its code (`codeFields`), the fields its 10026 issues name, else the form. */
function placeRefusal<F extends string, Out>(
  error: unknown,
  options: ContractFormOptions<F, Out>,
  fields: readonly F[],
  values: Values<F>,
): { errors: FieldErrors<F> } | { failure: string | null } {
  if (!(error instanceof ApiFailure)) return { failure: null };
  const field = options.codeFields?.[error.code];
  if (field !== undefined) return { errors: { [field]: error.message } as FieldErrors<F> };
  const found = wordIssues(refusalIssues(error), fields, options.message, values);
  return Object.keys(found).length > 0 ? { errors: found } : { failure: error.message };
}

/** Runs the latest `reword` once the reader's language changes (not on the first render). */
function useOnLanguageChange(reword: () => void) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const wordedIn = useRef(language);
  const latest = useRef(reword);
  latest.current = reword;
  useEffect(() => {
    if (wordedIn.current === language) return;
    wordedIn.current = language;
    latest.current();
  }, [language]);
}

/** The form last submitted or acted in, and the focus on its first invalid field (WCAG 3.3.1). */
function useInvalidFocus() {
  const formElement = useRef<HTMLFormElement | null>(null);
  return {
    remember: (event: FormEvent) => {
      if (event.currentTarget instanceof HTMLFormElement) formElement.current = event.currentTarget;
    },
    focusInvalid: () => focusFirstInvalid(document.activeElement?.closest('form') ?? formElement.current),
  };
}

/** The errors of these fields only. */
function errorsOf<F extends string>(found: FieldErrors<F>, fields: readonly F[]): FieldErrors<F> {
  const shown: FieldErrors<F> = {};
  for (const field of fields) if (found[field] !== undefined) shown[field] = found[field];
  return shown;
}

/**
 * A form's messages: the field errors, the form's error and its notice. They follow the reader's
 * language: on a change, the errors shown that `find` still finds are worded again in it, and
 * what the server said (in the former language) is cleared.
 */
function useFormMessages<F extends string>(find: () => FieldErrors<F>) {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [failure, setFailure] = useState('');
  const [notice, setNotice] = useState('');
  useOnLanguageChange(() => {
    const found = find();
    setErrors((shown) => errorsOf(found, Object.keys(shown) as F[]));
    setFailure('');
    setNotice('');
  });
  /** No field error, form error or notice (another way of answering was chosen). */
  const clearMessages = () => {
    setErrors({});
    setFailure('');
    setNotice('');
  };
  return { errors, setErrors, failure, setFailure, notice, setNotice, clearMessages };
}

/**
 * One send at a time: busy at once, before React renders it (a second Enter meanwhile sends
 * nothing), and "Sending…" said politely while the answer is awaited; focus stays where it is
 * (`SubmitButton`).
 */
function useSending() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const send = async (work: () => Promise<void>, fail: (error: unknown) => void) => {
    sending.current = true;
    setBusy(true);
    announce(t('state.sending'));
    try {
      await work();
    } catch (error) {
      fail(error);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return { busy, isSending: () => sending.current, send };
}

/**
 * One form over a contract call: its values, field errors, form error, notice and busy state.
 * Submitting validates with the call's zod schema (plus `check`) and puts each issue under its
 * field, or says "Sending…" while the body is sent (a submit meanwhile is ignored; the button is
 * `SubmitButton`, which keeps focus); the server's 10026 answer (`data: [{path, issue}]`) lands on the fields the same way.
 * `field(name)` gives a field component its name, value, error and change handler.
 */
export function useContractForm<F extends string, Out>(options: ContractFormOptions<F, Out>) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values<F>>(options.initial);
  const fields = Object.keys(options.initial) as F[];
  const messages = useFormMessages<F>(() => findErrors(options, fields, values).found);
  const { errors, setErrors, setFailure, clearMessages } = messages;
  const { busy, isSending, send } = useSending();
  const { remember, focusInvalid } = useInvalidFocus();

  /**
   * Checks the values as the server will: the errors of every field (or of `only` these, when
   * one step sends part of the form), shown; the body when no field has one.
   */
  const validate = (only?: readonly F[]): { body: Out | unknown; errors: FieldErrors<F> } => {
    const { body, found } = findErrors(options, fields, values);
    const shown = errorsOf(found, only ?? fields);
    setErrors(shown);
    if (Object.keys(shown).length > 0) focusInvalid();
    return { body, errors: shown };
  };

  /** A refusal on the fields it names (10026 issues, `codeFields`), else as the form's error. */
  const showFailure = (error: unknown) => {
    const placed = placeRefusal(error, options, fields, values);
    if ('failure' in placed) return setFailure(placed.failure ?? t('state.error'));
    setErrors(placed.errors);
    focusInvalid();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSending()) return;
    remember(event);
    setFailure('');
    const { body, errors: found } = validate();
    if (Object.keys(found).length > 0) return;
    await send(() => options.submit(body as Out), showFailure);
  };

  const setValue = (name: F, value: string) => setValues((current) => ({ ...current, [name]: value }));

  return {
    ...messages,
    values,
    busy,
    setValue,
    validate,
    showFailure,
    onSubmit,
    /** Back to `next` (or the first values), with no error or notice. */
    reset: (next: Values<F> = options.initial) => {
      setValues(next);
      clearMessages();
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

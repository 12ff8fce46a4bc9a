import type { QueryKey } from '@tanstack/react-query';
import { useId } from 'react';
import { failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { SubmitRow } from './Field.tsx';
import { checkFields, type Draft, fieldsOf, KitParts, type Part, type Schema } from './KitFields.tsx';
import { fill } from './text.ts';
import { issuesOf, type Problems, useDraftForm } from './useDraftForm.ts';

/** The words of a product form: its heading when it edits, its buttons, the note on changed terms. */
export type ProductFormTexts = {
  editHeading: string;
  save: string;
  create: string;
  cancel: string;
};

/** The server's field issues, each a value to check. */
const checkEach = (data: unknown): Problems<'checkValue'> =>
  new Map(issuesOf(data).map((i) => [i.name, 'checkValue'] as const));

/** What a product's form is given by its page: the product it edits (none: it creates one), the
 * heading that names it when it has none of its own, what to do once saved or cancelled. */
export type ProductFormShell<Product, Saved> = {
  product?: Product | undefined;
  labelledBy?: string | undefined;
  onSaved: (saved: Saved) => void;
  onCancel?: (() => void) | undefined;
};

/** What a product form is given (see ProductFormKit). */
export type ProductFormKitProps<D extends Draft, Body, Saved, Reason extends string> = {
  product?: { name: string } | undefined;
  /** The heading that names the form when it has none of its own (the create page's). */
  labelledBy?: string | undefined;
  onSaved: (saved: Saved) => void;
  onCancel?: (() => void) | undefined;
  texts: ProductFormTexts;
  change?: string;
  /** The message of each reason a field is wrong. */
  messages: Record<Reason, string>;
  initial: () => D;
  /** The form's parts for a draft: which fields are shown, with what choices, follows it. */
  parts: (draft: D) => Part<D>[];
  schema: Schema<Body>;
  /** The scale of the draft's asset (its amounts are checked at it) and its name. */
  scale: (draft: D) => number;
  unit: (draft: D) => string;
  maxLength?: number;
  extra?: (draft: D, problems: Problems<Reason>) => void;
  save: (body: Body) => Promise<Saved>;
  invalidate: QueryKey;
  fromServer?: (data: unknown) => Problems<Reason>;
};

/** The form's draft and state, checked by its parts, the schema and the product's own rules. */
function useProductForm<D extends Draft, Body, Saved, Reason extends string>(
  props: ProductFormKitProps<D, Body, Saved, Reason>,
) {
  const { parts, schema, scale, extra, messages } = props;
  const form = useDraftForm({
    initial: props.initial,
    check: (d: D) => {
      const { body, problems } = checkFields(fieldsOf(parts(d)), d, schema, scale(d));
      const all = problems as Problems<Reason>;
      extra?.(d, all);
      return { body, problems: all };
    },
    save: props.save,
    invalidate: props.invalidate,
    onSaved: props.onSaved,
    fromServer: props.fromServer ?? (checkEach as (data: unknown) => Problems<Reason>),
  });
  const at = {
    draft: form.draft,
    setDraft: form.setDraft,
    error: (name: string) => {
      const reason = form.problems.get(name);
      return reason ? messages[reason] : undefined;
    },
    unit: props.unit(form.draft),
    maxLength: props.maxLength,
  };
  return { form, at };
}

/**
 * A product's terms form (admins only), from a declarative list of parts: the fields check by their
 * kind and the contract's schema (`schema`), then by the product's own rules (`extra`); a submit
 * moves the focus to the first field to fix, or saves (`save`), reloads the product's queries and
 * hands on what the server answered. Without `product` it creates one; with it, it says it changes
 * the terms (`change`, a note) under a heading of its own.
 */
export function ProductFormKit<D extends Draft, Body, Saved, Reason extends string>(
  props: ProductFormKitProps<D, Body, Saved, Reason>,
) {
  const { product, labelledBy, onCancel, texts, change } = props;
  const { text } = useBackOffice();
  const headingId = useId();
  const { form, at } = useProductForm(props);
  return (
    <form
      className={product ? 'panel kit-form' : 'kit-form stack'}
      aria-labelledby={product ? headingId : labelledBy}
      onSubmit={form.submit}
      noValidate
    >
      {product ? <h3 id={headingId}>{fill(texts.editHeading, { name: product.name })}</h3> : null}
      {product && change ? (
        <p className="kit-note" role="note">
          {change}
        </p>
      ) : null}
      <KitParts parts={props.parts(form.draft)} at={at} />
      <SubmitRow
        failure={form.save.isError ? failureMessage(form.save.error, text.error.generic) : ''}
        busy={form.save.isPending}
        label={product ? texts.save : texts.create}
      >
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            {texts.cancel}
          </button>
        ) : null}
      </SubmitRow>
    </form>
  );
}

import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { Done, Pending } from './Field.tsx';
import { KitSection, useFocusOnLoad } from './KitScreen.tsx';
import { fill } from './text.ts';

/** The words every product area (earn, loans, smart plans) gives its product pages. */
export type ProductPageTexts = {
  backToProducts: string;
  createHeading: string;
  productHeading: string;
  termsHeading: string;
  readOnly: string;
  notFound: string;
  created: string;
  saved: string;
};

/**
 * A page of one item of a list (a product, a plan) before the item is there: the back link, then
 * loading, the query's failure, or not found (an id that is not a number, or not in the list).
 */
export function ItemPending({
  back,
  query,
  id,
  notFound,
}: {
  back: ReactNode;
  query: UseQueryResult<unknown>;
  id: number;
  notFound: string;
}) {
  const { text } = useBackOffice();
  return (
    <section className="panel">
      {back}
      <Pending
        failure={
          query.isError
            ? failureMessage(query.error, text.error.generic)
            : query.data || !Number.isSafeInteger(id)
              ? notFound
              : ''
        }
        loading={text.loading}
      />
    </section>
  );
}

/** What a product form is given: its heading, and what to do once saved or cancelled. */
export type ProductFormProps = {
  labelledBy?: string;
  onSaved: (saved: { id: number; name: string }) => void;
  onCancel?: () => void;
};

/**
 * /admin/<area>/products/new: the back link, the heading and the create form for whom the call
 * allows (admins), else why not; a created product opens its own page, which says so.
 */
export function NewProductPage({
  area,
  prefix = area,
  t,
  mayCreate,
  form,
}: {
  /** The area's path: /admin/<area>/products. */
  area: string;
  /** What the page's ids, test ids and section class start with (the area's by default). */
  prefix?: string;
  t: ProductPageTexts;
  mayCreate: boolean;
  form: (props: ProductFormProps) => ReactNode;
}) {
  const navigate = useNavigate();
  const headingId = `${prefix}-new-heading`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <Link className="back" to={`/${area}/products`}>
        {t.backToProducts}
      </Link>
      <h2 id={headingId} tabIndex={-1}>
        {t.createHeading}
      </h2>
      {mayCreate ? (
        form({
          labelledBy: headingId,
          onSaved: (saved) =>
            navigate(`/${area}/products/${saved.id}`, {
              state: { done: fill(t.created, { name: saved.name }) },
            }),
          onCancel: () => navigate(`/${area}/products`),
        })
      ) : (
        <p className="alert" role="alert">
          {t.readOnly}
        </p>
      )}
    </section>
  );
}

/**
 * /admin/<area>/products/:id: the product of the route's id from the area's list (loading, failure
 * and not found said), its heading focused once loaded, its status, what the save or the create
 * left to say, the area's own sections, then the terms: the edit form for whom may change them,
 * the facts for everyone else.
 */
export function ProductPage<T>({
  area,
  prefix = area,
  t,
  query,
  find,
  heading,
  status,
  mayEdit,
  form,
  terms,
  children,
}: {
  area: string;
  prefix?: string;
  t: ProductPageTexts;
  query: UseQueryResult<T[]>;
  find: (item: T) => number;
  heading: (item: T) => { id: number; name: string };
  status: (item: T) => { text: string; warn: boolean };
  mayEdit: boolean;
  form: (item: T, props: ProductFormProps) => ReactNode;
  terms: (item: T) => ReactNode;
  children?: (item: T) => ReactNode;
}) {
  const id = Number(useParams().id);
  const location = useLocation();
  const item = query.data?.find((row) => find(row) === id);
  const headingRef = useFocusOnLoad(item !== undefined);
  const [done, setDone] = useState<string>(() => (location.state as { done?: string } | null)?.done ?? '');
  const back = (
    <Link className="back" to={`/${area}/products`}>
      {t.backToProducts}
    </Link>
  );
  if (item === undefined) return <ItemPending back={back} query={query} id={id} notFound={t.notFound} />;
  const named = heading(item);
  const said = status(item);
  return (
    <section className="panel" aria-labelledby={`${prefix}-product-heading`}>
      {back}
      <h2 id={`${prefix}-product-heading`} ref={headingRef} tabIndex={-1}>
        {fill(t.productHeading, { name: named.name, id: named.id })}
      </h2>
      <p>
        <strong className={said.warn ? 'overdue' : undefined} data-testid={`${prefix}-status`}>
          {said.text}
        </strong>
      </p>
      <Done message={done} />
      {children?.(item)}
      {mayEdit ? (
        form(item, {
          onSaved: (saved) => {
            setDone(fill(t.saved, { name: saved.name }));
            headingRef.current?.focus();
          },
        })
      ) : (
        <ReadOnlyTerms prefix={prefix} t={t}>
          {terms(item)}
        </ReadOnlyTerms>
      )}
    </section>
  );
}

/** The terms for whom may not change them: said so, then the facts. */
function ReadOnlyTerms({
  prefix,
  t,
  children,
}: {
  prefix: string;
  t: ProductPageTexts;
  children: ReactNode;
}) {
  return (
    <KitSection id={`${prefix}-terms-heading`} heading={t.termsHeading}>
      <p className="muted">{t.readOnly}</p>
      {children}
    </KitSection>
  );
}

import { Code } from '@swx/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, use } from 'react';
import { Link } from 'react-router';
import { ApiFailure } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { BookBadge } from '../../shell/BookBadge.tsx';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { Failed, Loading } from '../PageState.tsx';
import './product.css';

/**
 * A product's screen (earn, smart trading, loans): its title with the book badge once logged in
 * (what a product shows and holds is per book), the links between the product's screens, then the
 * screen. `texts` are the product's texts, loaded with its chunk: the route's Suspense shows
 * loading until they are in. `name` marks the page for the product's own rules (`earn-page`).
 */
export function ProductPage({
  name,
  texts,
  title,
  nav,
  children,
}: {
  name: string;
  texts: Promise<unknown>;
  title: string;
  nav: ReactNode;
  children: ReactNode;
}) {
  use(texts);
  const isLogin = useClientState((s) => s.isLogin);
  return (
    <div className={`container page product-page ${name}-page`}>
      <div className="page-head">
        <h1 className="page-title">{title}</h1>
        {isLogin ? <BookBadge /> : null}
      </div>
      {nav}
      {children}
    </div>
  );
}

/**
 * What the book in use cannot do, in a card with the switch to the other book: `name` makes its
 * class (`<name>-demo`), test id and heading id.
 */
export function BookNotice({ name, title, text }: { name: string; title: string; text: string }) {
  const titleId = `${name}-demo-title`;
  return (
    <section
      className={`card product-note ${name}-demo`}
      data-testid={`${name}-demo`}
      aria-labelledby={titleId}
    >
      <h2 id={titleId}>{title}</h2>
      <p>{text}</p>
      <BookSwitch />
    </section>
  );
}

/**
 * A query's page states while it has no data: loading, then the failure with a retry, or `missing`
 * when the server answered that what was asked for does not exist. The screen shows its data once
 * `query.isSuccess`:
 *   if (!query.isSuccess) return <QueryState query={query} />;
 */
export function QueryState({
  query,
  missing,
  missingCode = Code.NOT_FOUND,
}: {
  query: UseQueryResult<unknown>;
  missing?: ReactNode;
  /** The server's answer that it does not exist (10004 by default). */
  missingCode?: number;
}) {
  if (query.isPending) return <Loading />;
  if (missing !== undefined && query.error instanceof ApiFailure && query.error.code === missingCode)
    return missing;
  return <Failed message={query.error?.message} onRetry={() => void query.refetch()} />;
}

/** What was asked for is not there: said in a card, with the link back to where to choose it. */
export function Missing({ name, text, to, back }: { name: string; text: string; to: string; back: string }) {
  return (
    <section className={`card product-note ${name}-missing`}>
      <p>{text}</p>
      <Link to={to}>{back}</Link>
    </section>
  );
}

import type { HelpSearchHit } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { announce } from '../../ui/announce.ts';
import { Failed } from '../../ui/PageState.tsx';
import { FallbackMark, foreign, useCategoryName, useHelpTranslation } from './parts.tsx';
import { helpQueries } from './queries.ts';

/** How long the reader pauses before the number of results is spoken (not on every key). */
const ANNOUNCE_AFTER_MS = 700;

/** What a search found: each hit's title (a link), its language mark, its kind and topic, its words. */
function Results({ hits, found }: { hits: readonly HelpSearchHit[]; found: string }) {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  const categoryName = useCategoryName();
  return (
    <div className="help-results" data-testid="help-results">
      <p className="muted small">{found}</p>
      <ul className="help-list">
        {hits.map((hit) => (
          <li key={hit.id}>
            <Link to={`/help/article/${hit.id}`} {...foreign(hit.language, language)}>
              {hit.title}
            </Link>{' '}
            <FallbackMark shownIn={hit.language} reader={language} />
            <span className="muted small help-kind">
              {hit.type === 5 ? t('help.faqKind') : t('help.noticeKind')} ·{' '}
              {categoryName(hit.type, hit.category)}
            </span>
            <p className="help-excerpt" {...foreign(hit.language, language)}>
              {hit.excerpt}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The help centre's search: FAQ articles and notices in the reader's language (English where a
 * text is missing, marked so); the number found is announced politely once the reader pauses.
 */
export function HelpSearch() {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  const [typed, setTyped] = useState('');
  const q = useDeferredValue(typed.trim());
  const hint = useId();
  const enabled = q.length >= 2;
  const search = useQuery({ ...helpQueries.search(language, q), enabled });
  const found = search.data
    ? search.data.length === 0
      ? t('help.noResults')
      : t('help.results', { count: search.data.length })
    : '';
  useEffect(() => {
    if (!found) return;
    const timer = setTimeout(() => announce(found), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [found]);
  return (
    <section className="help-search" aria-labelledby={`${hint}-label`}>
      <search>
        <form onSubmit={(event) => event.preventDefault()}>
          <label id={`${hint}-label`} htmlFor={`${hint}-input`} className="help-search-label">
            {t('help.searchLabel')}
          </label>
          <input
            id={`${hint}-input`}
            type="search"
            name="q"
            maxLength={100}
            autoComplete="off"
            placeholder={t('help.searchPlaceholder')}
            aria-describedby={hint}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <p id={hint} className="muted small">
            {t('help.searchHint')}
          </p>
        </form>
      </search>
      {enabled && search.isError ? (
        <Failed message={search.error.message} onRetry={() => void search.refetch()} />
      ) : null}
      {enabled && search.data ? <Results hits={search.data} found={found} /> : null}
    </section>
  );
}

import { type ContentItem, helpCategoryKey, isLanguage, isRtl, type Language } from '@swx/contract';
import { type ReactNode, use } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { SectionNav } from '../../ui/SectionNav.tsx';
import { helpTexts } from './texts.ts';
import './help.css';

/**
 * The attributes of a text shown in another language than the reader's (English, as a fallback):
 * its language and its own direction, so an English line reads left to right inside an Arabic page.
 */
export function foreign(
  shownIn: string | undefined,
  reader: Language,
): { lang?: string; dir?: 'ltr' | 'rtl' } {
  if (!shownIn || shownIn === reader) return {};
  return { lang: shownIn, dir: isLanguage(shownIn) && isRtl(shownIn) ? 'rtl' : 'ltr' };
}

/**
 * The translation function of a help screen, once the help centre's texts are in (they load with
 * its chunk; the page's Suspense shows loading until then). Every help screen calls it first, so
 * no text is looked up before its file is there (a prerendered page would show the keys).
 */
export function useHelpTranslation() {
  use(helpTexts);
  return useTranslation();
}

/** A help screen: its heading, the links between the help centre's pages, its content. */
export function HelpPage({
  title,
  titleIn,
  children,
}: {
  title: string;
  /** The language the title is in, when it is not the reader's. */
  titleIn?: string | undefined;
  children: ReactNode;
}) {
  const { t } = useHelpTranslation();
  const language = useClientState((s) => s.language);
  return (
    <div className="container page help">
      <h1 className="page-title" {...foreign(titleIn, language)}>
        {title}
      </h1>
      <SectionNav
        label={t('help.sections')}
        links={[
          ['/help', t('title.help')],
          ['/help/faq', t('title.faq')],
          ['/help/notice', t('title.helpNotice')],
        ]}
      />
      {children}
    </div>
  );
}

/** The name of a topic (FAQ) or category (notices). */
export function useCategoryName() {
  const { t } = useTranslation();
  return (type: number, category: number) => {
    const key = type === 5 || type === 6 ? helpCategoryKey(type, category) : undefined;
    return key ? t(`help.category.${key}`) : '';
  };
}

/** Said beside a text shown in English because the reader's language has none. */
export function FallbackMark({ shownIn, reader }: { shownIn: string | undefined; reader: Language }) {
  const { t } = useTranslation();
  if (!shownIn || shownIn === reader) return null;
  return (
    <span className="badge help-fallback" lang="en">
      {t('help.inEnglish')}
    </span>
  );
}

/** A list of articles or notices: each its title (a link), its language mark, and its date for notices. */
export function ArticleList({ items, dated }: { items: readonly ContentItem[]; dated?: boolean }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <ul className="help-list">
      {items.map((item) => (
        <li key={item.id}>
          <Link to={`/help/article/${item.id}`} {...foreign(item.language, language)}>
            {item.title}
          </Link>{' '}
          <FallbackMark shownIn={item.language} reader={language} />
          {dated && item.updatedAt ? (
            <span className="muted small help-date">
              {t('help.updated', { date: formatDate(language, item.updatedAt) })}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

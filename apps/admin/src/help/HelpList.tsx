import { adminCalls, type HelpArticleSummary } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { Link, NavLink, useSearchParams } from 'react-router';
import { allowed, callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, textColumn, timeColumn, useQueryState } from '../DataTable.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { type HelpText, useHelpText } from './help.text.ts';
import './help.css';

/** The topic (FAQ) or category (notices) of an article, in the staff member's words. */
export function categoryName(t: HelpText, type: number, category: number): string {
  if (type >= 1 && type <= 3) return (t.pageKinds as Record<string, string>)[String(type)] ?? String(type);
  const names = type === 5 ? ['start', 'trading', 'funds', 'security'] : ['news', 'maintenance'];
  const key = names[category - 1];
  return key ? ((t.categories as Record<string, string>)[key] ?? String(category)) : String(category);
}

/** FAQ articles or notices: the kind chosen by `?type=6` (notices) or not (FAQ). */
export function useHelpType(): 5 | 6 {
  const [search] = useSearchParams();
  return search.get('type') === '6' ? 6 : 5;
}

/** The list shown: FAQ articles (5), notices (`?type=6`) or the company and policy pages (`?type=pages`). */
export function useListKind(): 5 | 6 | 'pages' {
  const [search] = useSearchParams();
  return search.get('type') === 'pages' ? 'pages' : search.get('type') === '6' ? 6 : 5;
}

function Kinds({ type }: { type: 5 | 6 | 'pages' }) {
  const t = useHelpText();
  return (
    <nav className="help-kinds" aria-label={t.kinds}>
      <ul>
        <li>
          <NavLink to="/help" aria-current={type === 5 ? 'page' : undefined}>
            {t.faq}
          </NavLink>
        </li>
        <li>
          <NavLink to="/help?type=6" aria-current={type === 6 ? 'page' : undefined}>
            {t.notices}
          </NavLink>
        </li>
        <li>
          <NavLink to="/help?type=pages" aria-current={type === 'pages' ? 'page' : undefined}>
            {t.pages}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

function columns(t: HelpText, language: Parameters<typeof timeColumn>[2]): Column<HelpArticleSummary>[] {
  return [
    {
      key: 'title',
      header: t.title,
      cell: (row) => <Link to={`/help/${row.id}`}>{row.title}</Link>,
      sortValue: (row) => row.title,
    },
    textColumn('category', t.category, (row) => categoryName(t, row.type, row.category)),
    textColumn('state', t.state, (row) => (row.published ? t.published : t.unpublished)),
    textColumn('languages', t.languages, (row) => row.languages.join(', ') || '-'),
    textColumn('drafts', t.drafts, (row) => row.drafts.join(', ') || '-'),
    timeColumn('updated', t.updated, language, (row) => row.updatedAt),
  ];
}

/** The help centre's articles of one kind, with their languages, drafts and state. */
export function HelpList() {
  const t = useHelpText();
  const { language, staff } = useBackOffice();
  const type = useListKind();
  const list = useQuery({
    queryKey: keys.helpArticles(language, type),
    queryFn: () => callAdmin('listHelpArticles', { query: { type: String(type) } }),
  });
  return (
    <Screen heading={t.heading}>
      <Kinds type={type} />
      {type !== 'pages' && allowed(staff, adminCalls.createHelpArticle) ? (
        <p>
          <Link className="button-link" to={`/help/new?type=${type}`}>
            {t.newArticle}
          </Link>
        </p>
      ) : null}
      <DataTable
        caption={type === 5 ? t.faq : type === 6 ? t.notices : t.pages}
        columns={columns(t, language)}
        rows={list.data}
        rowKey={(row) => row.id}
        {...useQueryState(list)}
        empty={t.empty}
        filterText={(row) => `${row.title} ${row.slug}`}
        testId="help-articles"
      />
    </Screen>
  );
}

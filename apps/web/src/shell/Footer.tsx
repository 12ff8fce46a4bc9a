import { type ContentItem, ContentType } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../app/state.ts';
import { contentQueries } from '../features/content/queries.ts';
import {
  Copyright,
  OperatorDetails,
  RiskFigure,
  SandboxNotice,
  SocialLinks,
} from '../features/operator/Operator.tsx';

const PRODUCT_LINKS = [
  { to: '/market', key: 'nav.market' },
  { to: '/loan', key: 'nav.loan' },
  { to: '/nfts', key: 'nav.nfts' },
  { to: '/trading', key: 'nav.trading' },
  { to: '/proof', key: 'title.proof' },
] as const;

export function detailHref(item: Pick<ContentItem, 'id' | 'title'>): string {
  return `/detail?${new URLSearchParams({ id: String(item.id), title: item.title }).toString()}`;
}

function ContentList({ heading, items }: { heading: string; items: readonly ContentItem[] }) {
  return (
    <nav className="footer-column" aria-label={heading}>
      <h2>{heading}</h2>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <Link to={detailHref(item)}>{item.title}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The footer link lists: products, then company, policy and other content from the server. */
export function FooterLists() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const footer = useQuery(contentQueries.footer(language));
  const of = (type: number) => (footer.data ?? []).filter((item) => item.type === type);
  return (
    <div className="footer-lists">
      <nav className="footer-column" aria-label={t('footer.products')}>
        <h2>{t('footer.products')}</h2>
        <ul>
          {PRODUCT_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{t(link.key)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      {footer.isError ? (
        <p className="footer-error" role="status">
          {t('state.error')}{' '}
          <button type="button" className="link-button" onClick={() => void footer.refetch()}>
            {t('action.retry')}
          </button>
        </p>
      ) : (
        <>
          <ContentList heading={t('footer.company')} items={of(ContentType.COMPANY)} />
          <ContentList heading={t('footer.policy')} items={of(ContentType.POLICY)} />
          <ContentList heading={t('footer.other')} items={of(ContentType.OTHER)} />
        </>
      )}
    </div>
  );
}

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="container">
        <FooterLists />
        <div className="footer-bottom">
          <SandboxNotice />
          <OperatorDetails />
          <p className="risk-note">{t('footer.riskWarning')}</p>
          <RiskFigure />
          <SocialLinks />
          <Copyright />
        </div>
      </div>
    </footer>
  );
}

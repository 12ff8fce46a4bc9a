import { LANGUAGE_TAGS, localizedFor } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { FooterLists } from '../../shell/Footer.tsx';
import { Icon, type IconName } from '../../shell/icons.tsx';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { MarketTable } from '../market/MarketTable.tsx';
import { marketQueries } from '../market/queries.ts';
import { Copyright, SandboxNotice, useOperator } from '../operator/Operator.tsx';
import { statsQueries } from '../stats/queries.ts';
import './home.css';

const FEATURES: readonly { key: string; icon: IconName; to: string }[] = [
  { key: 'markets', icon: 'market', to: '/market' },
  { key: 'trading', icon: 'trading', to: '/market' },
  { key: 'smart', icon: 'trading', to: '/trading' },
  { key: 'earn', icon: 'profile', to: '/financial' },
  { key: 'loan', icon: 'loan', to: '/loan' },
  { key: 'nft', icon: 'nfts', to: '/nfts' },
];

/** Technology the platform is built on; each links to its project's site. */
const PARTNERS = [
  { name: 'PostgreSQL', href: 'https://www.postgresql.org/' },
  { name: 'Node.js', href: 'https://nodejs.org/' },
  { name: 'React', href: 'https://react.dev/' },
  { name: 'Lightweight Charts', href: 'https://www.tradingview.com/lightweight-charts/' },
] as const;

/** A titled section of the home page; `id` names its heading for the section's accessible name. */
function HomeSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A link that opens in a new window, and says so to screen readers. */
function ExternalLink({
  className,
  href,
  children,
}: {
  className: string;
  href: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> {t('a11y.opensNewWindow')}</span>
    </a>
  );
}

/** The operator's leaders as staff set them (name, role in the reader's language, photo); none are invented. */
function Leaders() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const operator = useOperator();
  if (!operator || operator.leaders.length === 0) return null;
  return (
    <HomeSection id="leaders-title" title={t('home.leadersTitle')}>
      <ul className="leader-grid">
        {operator.leaders.map((leader) => (
          <li key={`${leader.name}:${leader.photoUrl ?? ''}`} className="card leader">
            {leader.photoUrl ? (
              <img
                className="avatar"
                src={leader.photoUrl}
                alt={t('operator.photoOf', { name: leader.name })}
              />
            ) : (
              <span className="avatar" aria-hidden="true">
                {leader.name
                  .split(/\s+/)
                  .map((part) => part[0])
                  .join('')
                  .slice(0, 2)}
              </span>
            )}
            <h3>{leader.name}</h3>
            <p>{localizedFor(leader.role, language)}</p>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

/** The operator's partners as staff set them. */
function Partners() {
  const { t } = useTranslation();
  const operator = useOperator();
  if (!operator || operator.partners.length === 0) return null;
  return (
    <HomeSection id="operator-partners-title" title={t('home.operatorPartnersTitle')}>
      <ul className="partner-row">
        {operator.partners.map((partner) => (
          <li key={`${partner.name}:${partner.url ?? ''}`}>
            {partner.url ? (
              <ExternalLink className="partner" href={partner.url}>
                {partner.name}
              </ExternalLink>
            ) : (
              <span className="partner">{partner.name}</span>
            )}
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

/** App-store links when staff set them; until then, that the web app is the app. */
function AppLinks() {
  const { t } = useTranslation();
  const operator = useOperator();
  const links = [
    operator?.appStoreUrl ? { href: operator.appStoreUrl, label: t('home.appStore') } : null,
    operator?.googlePlayUrl ? { href: operator.googlePlayUrl, label: t('home.googlePlay') } : null,
  ].filter((link): link is { href: string; label: string } => link !== null);
  if (links.length === 0) return <p className="muted apps-note">{t('home.appsSoon')}</p>;
  return (
    <ul className="app-links">
      {links.map((link) => (
        <li key={link.href}>
          <ExternalLink className="button ghost" href={link.href}>
            {link.label}
          </ExternalLink>
        </li>
      ))}
    </ul>
  );
}

function FeatureCards() {
  const { t } = useTranslation();
  return (
    <HomeSection id="features-title" title={t('home.featuresTitle')}>
      <ul className="feature-grid">
        {FEATURES.map((feature) => (
          <li key={feature.key} className="card feature">
            <Icon name={feature.icon} size={28} />
            <h3>
              <Link to={feature.to}>{t(`home.feature.${feature.key}Title`)}</Link>
            </h3>
            <p>{t(`home.feature.${feature.key}Text`)}</p>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}

/** Figures counted by the server from its own data; nothing here is typed in. */
function Stats() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const stats = useQuery(statsQueries.platform());
  const locale = LANGUAGE_TAGS[language];
  const figure = (value: number | undefined) =>
    value === undefined ? '—' : new Intl.NumberFormat(locale).format(value);
  return (
    <HomeSection id="stats-title" title={t('home.statsTitle')}>
      <dl className="stats">
        <div className="card">
          <dt>{t('home.statsUsers')}</dt>
          <dd data-stat="users">{figure(stats.data?.registeredUsers)}</dd>
        </div>
        <div className="card">
          <dt>{t('home.statsInstruments')}</dt>
          <dd data-stat="instruments">{figure(stats.data?.listedInstruments)}</dd>
        </div>
        <div className="card">
          <dt>{t('home.statsCrypto')}</dt>
          <dd data-stat="crypto">{figure(stats.data?.listedCrypto)}</dd>
        </div>
        <div className="card">
          <dt>{t('home.statsVolume')}</dt>
          <dd data-stat="volume">
            {stats.data
              ? // Intl formats the decimal string exactly (no float on the way).
                new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 2 }).format(
                  stats.data.tradedVolumeUsdt as Intl.StringNumericLiteral,
                )
              : '—'}
          </dd>
        </div>
      </dl>
      <p className="muted small">{t('home.statsNote')}</p>
    </HomeSection>
  );
}

/** The home page's live market list: the first crypto and forex instruments, live from /message. */
function LiveMarkets() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  // Only the rows shown, not the whole lists (hundreds of items with their mini charts).
  const crypto = useQuery(marketQueries.firstOfType(language, 2, 6));
  const forex = useQuery(marketQueries.firstOfType(language, 1, 2));
  if (crypto.isPending || forex.isPending) return <Loading />;
  if (crypto.isError) return <Failed message={crypto.error.message} onRetry={() => void crypto.refetch()} />;
  const items = [...crypto.data, ...(forex.data ?? [])];
  return (
    <>
      <MarketTable items={items} caption={t('home.marketsTitle')} />
      <Link to="/market">{t('market.viewAll')}</Link>
    </>
  );
}

function DesktopHome() {
  const { t } = useTranslation();
  const isLogin = useClientState((s) => s.isLogin);
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-row">
          <div>
            <h1 id="hero-title">{t('home.heroTitle')}</h1>
            <p className="lead">{t('home.heroText')}</p>
            <div className="hero-actions">
              <Link className="button primary large" to={isLogin ? '/market' : '/pass/register'}>
                {t('home.start')}
              </Link>
              <Link className="button ghost large" to="/market">
                {t('home.openMarkets')}
              </Link>
            </div>
            <AppLinks />
          </div>
          <div className="card demo-card">
            <h2>{t('home.demoTitle')}</h2>
            <p>{t('home.demoText')}</p>
          </div>
        </div>
      </section>
      <div className="container">
        <Stats />
        <FeatureCards />
        <HomeSection id="markets-title" title={t('home.marketsTitle')}>
          <LiveMarkets />
        </HomeSection>
        <Leaders />
        <Partners />
        <HomeSection id="partners-title" title={t('home.partnersTitle')}>
          <ul className="partner-row">
            {PARTNERS.map((partner) => (
              <li key={partner.name}>
                <ExternalLink className="partner" href={partner.href}>
                  {partner.name}
                </ExternalLink>
              </li>
            ))}
          </ul>
        </HomeSection>
      </div>
    </div>
  );
}

function MobileHome() {
  const { t } = useTranslation();
  return (
    <div className="home container">
      <h2 className="visually-hidden">{t('title.home')}</h2>
      <FeatureCards />
      <SandboxNotice />
      <FooterLists />
      <Copyright />
    </div>
  );
}

export default function Home() {
  const isDesktop = useClientState((s) => s.isDesktop);
  return isDesktop ? <DesktopHome /> : <MobileHome />;
}

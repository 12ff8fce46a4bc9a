import { LANGUAGE_TAGS, type Language, localizedFor, type OperatorInfo } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { Icon } from '../../shell/icons.tsx';
import { operatorQueries } from './queries.ts';
import './operator.css';

/**
 * The operator's identity on the customer pages (DESIGN §2 rule 9): only what staff set is shown;
 * with no company named the site is a sandbox and says so. Nothing here is typed into the code.
 */
export function useOperator(): OperatorInfo | undefined {
  return useQuery(operatorQueries.settings()).data;
}

/** "74.5 %" in the reader's format; the decimal string is scaled by exponent, never a float. */
export function formatPercent(language: Language, percent: string): string {
  return new Intl.NumberFormat(LANGUAGE_TAGS[language], {
    style: 'percent',
    maximumFractionDigits: 2,
  }).format(`${percent}E-2` as Intl.StringNumericLiteral);
}

export function countryName(language: Language, code: string): string {
  return (
    new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region', fallback: 'code' }).of(code) ?? code
  );
}

/** A value set inside a sentence, isolated (FSI … PDI) so "12 Quay Street" keeps its order in Arabic. */
const isolate = (value: string) => `\u2068${value}\u2069`;

/** The sandbox statement, shown while no operator is named. */
export function SandboxNotice({ className = 'sandbox-note' }: { className?: string }) {
  const { t } = useTranslation();
  const operator = useOperator();
  if (!operator?.sandbox) return null;
  return (
    <p className={className} data-sandbox-notice="">
      <strong>{t('operator.sandboxTitle')}</strong> {t('operator.sandbox')}
    </p>
  );
}

/** The risk figure with its date, when staff set one. */
export function RiskFigure() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const operator = useOperator();
  if (!operator?.riskPercent || !operator.riskAsOf) return null;
  return (
    <p className="risk-note" data-risk-figure="">
      {t('operator.riskFigure', {
        percent: formatPercent(language, operator.riskPercent),
        date: formatDate(language, `${operator.riskAsOf}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' }),
      })}
    </p>
  );
}

/** Company, registration, regulator and support lines, each only when set. */
export function OperatorDetails() {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const operator = useOperator();
  if (!operator || operator.sandbox) return null;
  const company = [
    operator.companyName ? t('operator.operatedBy', { company: isolate(operator.companyName) }) : null,
    operator.registrationCountry
      ? t('operator.registeredIn', { country: isolate(countryName(language, operator.registrationCountry)) })
      : null,
    operator.registrationNumber
      ? t('operator.companyNumber', { number: isolate(operator.registrationNumber) })
      : null,
    operator.registeredAddress
      ? t('operator.address', { address: isolate(operator.registeredAddress) })
      : null,
  ].filter((part): part is string => part !== null);
  const regulation = [
    operator.regulator ? t('operator.regulatedBy', { regulator: isolate(operator.regulator) }) : null,
    operator.licenceNumber ? t('operator.licence', { licence: isolate(operator.licenceNumber) }) : null,
  ].filter((part): part is string => part !== null);
  const hours = localizedFor(operator.supportHours, language);
  const hasSupport = operator.supportEmail || operator.supportPhone || hours;
  return (
    <div className="operator-details" data-operator-details="">
      <p>{company.join(' · ')}</p>
      {regulation.length > 0 ? (
        <p>
          {regulation.join(' · ')}
          {operator.registerUrl ? (
            <>
              {' · '}
              <a href={operator.registerUrl} target="_blank" rel="noopener noreferrer">
                {t('operator.registerLink')}
                <span className="visually-hidden"> {t('a11y.opensNewWindow')}</span>
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {hasSupport ? (
        <p>
          {t('operator.support')}:{' '}
          {operator.supportEmail ? (
            <a href={`mailto:${operator.supportEmail}`}>{operator.supportEmail}</a>
          ) : null}
          {operator.supportEmail && operator.supportPhone ? ' · ' : null}
          {operator.supportPhone ? (
            <a href={`tel:${operator.supportPhone.replace(/[^+\d]/g, '')}`} dir="ltr">
              {operator.supportPhone}
            </a>
          ) : null}
          {hours ? ` · ${hours}` : null}
        </p>
      ) : null}
    </div>
  );
}

const SOCIAL_LABELS = { x: 'X', telegram: 'Telegram', facebook: 'Facebook', youtube: 'YouTube' } as const;

/** The operator's own social accounts; none is shown until staff set them. */
export function SocialLinks() {
  const { t } = useTranslation();
  const operator = useOperator();
  if (!operator || operator.social.length === 0) return null;
  return (
    <ul className="social" aria-label={t('footer.social')}>
      {operator.social.map((item) => (
        <li key={item.network}>
          <a
            className="icon-button"
            href={item.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`${SOCIAL_LABELS[item.network]} ${t('a11y.opensNewWindow')}`}
          >
            <Icon name={item.network} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** "© 2026 Example Markets Ltd": the operator when named, else the product. */
export function Copyright() {
  const { t } = useTranslation();
  const operator = useOperator();
  return (
    <p className="copyright">
      {t('footer.copyright', { year: new Date().getFullYear(), holder: operator?.companyName ?? t('brand') })}
    </p>
  );
}

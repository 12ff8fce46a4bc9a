import { LANGUAGE_TAGS } from '@swx/contract';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../../app/state.ts';
import { direction, percent } from './live.ts';

/** A 24 h change: colour, an arrow and the sign, so the move never rests on colour alone. */
export function Change({ change }: { change: string }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const dir = direction(change);
  return (
    <span className={`change ${dir}`}>
      <span aria-hidden="true">{dir === 'up' ? '▲ ' : dir === 'down' ? '▼ ' : ''}</span>
      <span className="visually-hidden">
        {dir === 'up' ? t('market.up') : dir === 'down' ? t('market.down') : ''}{' '}
      </span>
      {percent(change, LANGUAGE_TAGS[language])}
    </span>
  );
}

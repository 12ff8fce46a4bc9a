import type { MyInvite } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { announce } from '../../ui/announce.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { copyText } from '../../ui/copy.ts';
import { Failed, Loading } from '../../ui/PageState.tsx';
import { QrCode } from '../../ui/QrCode.tsx';
import { inviteLink } from './invite.ts';
import { FriendList, RewardList, RewardTotals } from './Lists.tsx';
import { useInviteFormat } from './parts.tsx';
import { inviteQueries } from './queries.ts';
import { RebateForm } from './Rebate.tsx';
import { invitesTexts } from './texts.ts';
import '../../ui/product/product.css';
import './invites.css';

/** What stops rewards now, before anything else: the programme switched off, or my link frozen. */
function Stops({ invite }: { invite: MyInvite }) {
  const { t } = useTranslation();
  return (
    <>
      {invite.terms.enabled ? null : (
        <p className="product-caution" data-testid="invite-disabled">
          <strong>{t('invite.disabled.title')}</strong> {t('invite.disabled.text')}
        </p>
      )}
      {invite.frozen ? (
        <p className="product-caution" data-testid="invite-frozen">
          <strong>{t('invite.frozen.title')}</strong> {t('invite.frozen.text')}
        </p>
      ) : null}
    </>
  );
}

/** The programme's terms in plain words, stated before anyone invites anybody. */
function Rules({ terms }: { terms: MyInvite['terms'] }) {
  const { t } = useTranslation();
  const f = useInviteFormat();
  const days = (count: number) => t('invite.days', { count });
  return (
    <section
      className="card product-card invite-rules"
      aria-labelledby="invite-rules-title"
      data-testid="invite-rules"
    >
      <h2 id="invite-rules-title">{t('invite.rules.title')}</h2>
      <ul className="product-rules">
        <li data-rule="share">
          {t('invite.rules.share', { share: f.percent(terms.shareBps), period: days(terms.rewardDays) })}
        </li>
        <li data-rule="qualify">{t('invite.rules.qualify')}</li>
        <li data-rule="demo">{t('invite.rules.demo')}</li>
        <li data-rule="hold">{t('invite.rules.hold', { period: days(terms.holdDays) })}</li>
        <li data-rule="cap">{t('invite.rules.cap', { cap: f.money(terms.dailyCapUsdt, 'USDT') })}</li>
        <li data-rule="refusal">{t('invite.rules.refusal')}</li>
        <li data-rule="link">{t('invite.rules.link')}</li>
        <li data-rule="source">{t('invite.rules.source')}</li>
        <li data-rule="privacy">{t('invite.rules.privacy')}</li>
      </ul>
    </section>
  );
}

/** Shares the link through the device's own sheet where there is one, else copies it. */
function ShareButton({ link, code }: { link: string; code: string }) {
  const { t } = useTranslation();
  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({
          title: t('title.invite'),
          text: t('invite.share.message', { code }),
          url: link,
        });
      } catch {
        // Closed by the customer, or refused by the browser: nothing was sent, nothing to say.
      }
      return;
    }
    announce((await copyText(link)) ? t('invite.share.copiedInstead') : t('invite.share.copyFailed'));
  };
  return (
    <button type="button" className="button primary" onClick={() => void share()}>
      {t('invite.share.share')}
    </button>
  );
}

/** My code and link, each with a copy button, the link's QR code and a share button. */
function ShareCard({ invite }: { invite: MyInvite }) {
  const { t } = useTranslation();
  const link = inviteLink(window.location.origin, invite.linkPath);
  const said = { copied: t('invite.share.copied'), failed: t('invite.share.copyFailed') };
  return (
    <section className="card product-card invite-share" aria-labelledby="invite-share-title">
      <h2 id="invite-share-title">{t('invite.share.title')}</h2>
      <div className="invite-share-body">
        <QrCode text={link} label={t('invite.share.qrLabel')} className="invite-qr" testId="invite-qr" />
        <dl className="invite-share-facts">
          <div>
            <dt>{t('invite.share.code')}</dt>
            <dd>
              <code className="invite-code" dir="ltr" data-testid="invite-code">
                {invite.code}
              </code>
              <CopyButton
                text={invite.code}
                label={t('invite.share.copy')}
                name={t('invite.share.copyCode')}
                said={said}
              />
            </dd>
          </div>
          <div>
            <dt>{t('invite.share.link')}</dt>
            <dd>
              <code className="invite-link" dir="ltr" data-testid="invite-link">
                {link}
              </code>
              <CopyButton
                text={link}
                label={t('invite.share.copy')}
                name={t('invite.share.copyLink')}
                said={said}
              />
            </dd>
          </div>
        </dl>
      </div>
      <div className="row">
        <ShareButton link={link} code={invite.code} />
      </div>
    </section>
  );
}

function InviteScreen({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const query = useQuery(inviteQueries.summary(userId));
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed message={query.error.message} onRetry={() => void query.refetch()} />;
  const invite = query.data;
  return (
    <div className="product-stack invite-page" data-testid="invite-page">
      <p className="product-intro">{t('invite.intro')}</p>
      <Stops invite={invite} />
      <div className="product-grid invite-top">
        <Rules terms={invite.terms} />
        <div className="product-stack">
          <ShareCard invite={invite} />
          {invite.invitedBy ? (
            <p className="card invite-by" data-testid="invite-by">
              {t('invite.invitedBy', { name: `\u2068${invite.invitedBy}\u2069` })}
            </p>
          ) : null}
          <RebateForm invite={invite} userId={userId} />
        </div>
      </div>
      <RewardTotals totals={invite.totals} />
      <FriendList userId={userId} friends={invite.friends} />
      <RewardList userId={userId} />
    </div>
  );
}

/** Invite friends (`/profile/invite`): the rules first, then my code and link, my friends and my rewards. */
export default function Invite() {
  use(invitesTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.invite')}>{user ? <InviteScreen userId={user.id} /> : null}</AccountPage>
  );
}

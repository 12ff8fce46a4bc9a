import { inviteRebateBody, type MyInvite } from '@swx/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../app/api.ts';
import { announce } from '../../ui/announce.ts';
import { FormError } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { Choice } from '../../ui/product/Choice.tsx';
import { splitShare } from './invite.ts';
import { useInviteFormat } from './parts.tsx';
import { inviteQueries } from './queries.ts';

/**
 * The part of my reward I give back to my friends (0, 5 or 10 % of each fee, out of my share):
 * each choice says what I keep and what my friend gets; a change applies from the next day.
 */
export function RebateForm({ invite, userId }: { invite: MyInvite; userId: number }) {
  const { t } = useTranslation();
  const f = useInviteFormat();
  const queryClient = useQueryClient();
  const form = useContractForm({
    schema: inviteRebateBody,
    initial: { rebateBps: String(invite.rebateBps) },
    toBody: (values) => ({ rebateBps: Number(values.rebateBps) }),
    message: () => undefined,
    submit: async (body) => {
      const saved = await callApi('setInviteRebate', { body });
      queryClient.setQueryData(inviteQueries.summary(userId).queryKey, saved);
      announce(t('invite.rebate.saved', { give: f.percent(saved.rebateBps) }));
    },
  });
  const options = invite.terms.rebateChoices.map((bps) => {
    const { inviterBps, friendBps } = splitShare(invite.terms.shareBps, bps);
    return {
      value: String(bps),
      label: t('invite.rebate.option', { give: f.percent(friendBps), keep: f.percent(inviterBps) }),
    };
  });
  return (
    <section className="card product-card invite-rebate" aria-labelledby="invite-rebate-title">
      <h2 id="invite-rebate-title">{t('invite.rebate.title')}</h2>
      <p className="small muted">{t('invite.rebate.note')}</p>
      <form className="product-form" onSubmit={form.onSubmit} noValidate data-testid="invite-rebate">
        <Choice
          legend={t('invite.rebate.legend')}
          name="rebateBps"
          value={form.values.rebateBps}
          options={options}
          onChange={(value) => form.setValue('rebateBps', value)}
          pills
        />
        <FormError message={form.failure} />
        <div className="row">
          <SubmitButton busy={form.busy} className="button primary">
            {form.busy ? t('invite.rebate.saving') : t('invite.rebate.save')}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}

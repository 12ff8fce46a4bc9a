import type { InviteLinkAdmin } from '@swx/contract';
import { type InfiniteData, type Query, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { customerLabel } from '../Facts.tsx';
import { Alert } from '../Field.tsx';
import { ReasonField, useReason } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { useInviteText } from './invites.text.ts';

/** Who invited whom, as staff read it: "ada (#12)" and "bob (#40)". */
export const linkNames = (link: InviteLinkAdmin) => ({
  id: link.id,
  inviter: customerLabel({ customer: link.inviter, userId: link.inviterId }),
  friend: customerLabel({ customer: link.friend, userId: link.friendId }),
});

/** The freeze (or unfreeze) of a link: the call, then the link as the server answers it in every list loaded. */
function useFreeze(onDone: (link: InviteLinkAdmin) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { linkId: string; frozen: boolean; reason: string }) =>
      callAdmin('freezeInviteLink', { body }),
    onSuccess: async (saved) => {
      const links = { queryKey: keys.invites, predicate: (q: Query) => q.queryKey[2] === 'links' };
      client.setQueriesData<InfiniteData<InviteLinkAdmin[]>>(links, (old) =>
        old?.pages
          ? { ...old, pages: old.pages.map((page) => page.map((l) => (l.id === saved.id ? saved : l))) }
          : old,
      );
      onDone(saved);
      await client.invalidateQueries(links);
    },
  });
}

/**
 * The confirmation of a freeze or an unfreeze, in a modal dialog: what it does, the reason
 * (mandatory, kept in the audit log), confirm or cancel. Escape or cancel closes it and the focus
 * goes back to the row's button.
 */
export function FreezeDialog({
  link,
  onClose,
  onDone,
}: {
  link: InviteLinkAdmin;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { text } = useBackOffice();
  const t = useInviteText().links;
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const reason = useReason(text.error.reasonShort);
  const freezing = !link.frozen;
  const freeze = useFreeze((saved) => {
    dialog.current?.close();
    onDone(fill(saved.frozen ? t.frozenDone : t.unfrozenDone, { id: saved.id }));
  });
  // Opened once drawn (the reason field takes the focus); leaving the page removes it with the rest.
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const names = linkNames(link);
  return (
    <dialog
      ref={dialog}
      className="invite-dialog"
      aria-labelledby={headingId}
      onClose={onClose}
      data-testid="invite-freeze-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const given = reason.checked();
          if (given !== null) freeze.mutate({ linkId: String(link.id), frozen: freezing, reason: given });
        }}
      >
        <h3 id={headingId}>{fill(freezing ? t.freezeHeading : t.unfreezeHeading, names)}</h3>
        <p>{fill(freezing ? t.freezeWhat : t.unfreezeWhat, names)}</p>
        <ReasonField label={t.reason} hint={t.reasonHint} reason={reason} />
        <Alert message={freeze.isError ? failureMessage(freeze.error, text.error.generic) : ''} />
        <div className="actions">
          <button type="submit" className={freezing ? 'danger' : 'primary'} disabled={freeze.isPending}>
            {freezing ? t.confirmFreeze : t.confirmUnfreeze}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            {t.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

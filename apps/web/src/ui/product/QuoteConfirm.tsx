import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { DialogButtons } from '../Field.tsx';
import './product.css';

/** A modal dialog that opens once mounted; closing it hands focus back to the control that opened it. */
export function useModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return dialog;
}

/**
 * The confirm step of a product (quote then commit), in a dialog: the figures (children), then, in
 * view at the bottom, the time left (`countdown`), the notice that the quote was renewed, what
 * else is said (`notices`), the refusal, and cancel beside the one confirm. The confirm submits
 * the dialog's form; `why` is the id of what says why it is disabled; `buttons` is the class of
 * the row of cancel and confirm.
 */
export function QuoteConfirm({
  dialog,
  title,
  label,
  testId,
  className,
  onClose,
  onConfirm,
  countdown,
  renewed,
  notices,
  failure,
  cancel,
  confirm,
  disabled,
  why,
  buttons,
  children,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  title: string;
  /** The accessible name of the figures. */
  label: string;
  testId: string;
  className: string;
  onClose: () => void;
  onConfirm: () => void;
  countdown?: ReactNode;
  /** The words that say the quote was renewed, when it was. */
  renewed?: string | false | undefined;
  notices?: ReactNode;
  failure?: ReactNode;
  cancel: string;
  confirm: string;
  disabled: boolean;
  why?: string | undefined;
  buttons?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <ConfirmDialog
      dialogRef={dialog}
      titleId={titleId}
      title={title}
      label={label}
      testId={testId}
      className={className}
      onClose={onClose}
      onSubmit={onConfirm}
      actions={
        <>
          {countdown}
          {renewed ? (
            <p className="notice" data-testid="requote">
              {renewed}
            </p>
          ) : null}
          {notices}
          {failure}
          <DialogButtons {...{ dialog, cancel, confirm, disabled, why }} className={buttons} />
        </>
      }
    >
      {children}
    </ConfirmDialog>
  );
}

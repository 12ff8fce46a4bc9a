import type { ReactNode, RefObject } from 'react';
import { BookBadge } from '../shell/BookBadge.tsx';
import { Isolated, withoutIsolates } from './bidi.tsx';
import { Modal } from './Modal.tsx';
import './confirm-dialog.css';

/**
 * A product's dialog (the confirm step of quote then commit, a detail): the title and the book on
 * top and the actions at the bottom, always in view, with the figures scrolling between and
 * reachable by keyboard. With `onSubmit` the dialog is a form whose primary (submit) button commits.
 */
export function ConfirmDialog({
  dialogRef,
  titleId,
  title,
  label,
  testId,
  className,
  onClose,
  onSubmit,
  children,
  actions,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  titleId: string;
  title: ReactNode;
  /** The accessible name of the scrolled part. */
  label: string;
  testId: string;
  /** The feature's own class, for what is its own inside. */
  className?: string;
  onClose?: () => void;
  onSubmit?: () => void;
  children: ReactNode;
  actions: ReactNode;
}) {
  const body = (
    <>
      <div className="confirm-head confirm-dialog-head">
        <h2 id={titleId}>{typeof title === 'string' ? <Isolated text={title} /> : title}</h2>
        <BookBadge />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolled figures must be reachable by keyboard */}
      <section className="confirm-dialog-scroll" aria-label={withoutIsolates(label)} tabIndex={0}>
        {children}
      </section>
      <div className="confirm-dialog-actions">{actions}</div>
    </>
  );
  return (
    <Modal
      dialogRef={dialogRef}
      className={className ? `modal confirm-dialog ${className}` : 'modal confirm-dialog'}
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid={testId}
    >
      {onSubmit ? (
        <form
          className="confirm-dialog-body"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {body}
        </form>
      ) : (
        <div className="confirm-dialog-body">{body}</div>
      )}
    </Modal>
  );
}

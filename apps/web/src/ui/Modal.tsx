import type { DialogHTMLAttributes, ReactNode, RefObject } from 'react';
import { createPortal } from 'react-dom';

/**
 * A modal `<dialog>` rendered at the end of the body, whatever component opens it: a dialog opened
 * from a table cell or a card inherits none of its styles (no clipped or unwrapped content), and
 * `showModal()` puts it in the top layer. Closing returns focus to the control that opened it.
 */
export function Modal({
  dialogRef,
  children,
  ...attributes
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  children: ReactNode;
} & DialogHTMLAttributes<HTMLDialogElement>) {
  return createPortal(
    <dialog ref={dialogRef} {...attributes}>
      {children}
    </dialog>,
    document.body,
  );
}

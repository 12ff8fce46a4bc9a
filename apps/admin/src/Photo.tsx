import { useEffect, useRef, useState } from 'react';
import { useBackOffice } from './context.ts';
import { fill } from './text.ts';

/**
 * A customer's image (a KYC photo, a deposit proof): a thumbnail that opens a larger view in a
 * modal dialog. `load` fetches it with the staff token and answers an object URL.
 */
export function Photo({ load, label }: { load: () => Promise<string>; label: string }) {
  const { text } = useBackOffice();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const loader = useRef(load);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    loader
      .current()
      .then((u) => {
        made = u;
        if (!cancelled) setUrl(u);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, []);
  return (
    <figure className="photo">
      {url ? (
        <button
          type="button"
          className="thumb"
          onClick={() => dialog.current?.showModal()}
          aria-label={fill(text.kyc.enlarge, { side: label })}
        >
          <img src={url} alt={label} />
        </button>
      ) : (
        <p className="muted">{failed ? text.kyc.photoFailed : text.loading}</p>
      )}
      <figcaption>{label}</figcaption>
      <dialog ref={dialog} className="viewer" aria-label={label}>
        {url ? <img src={url} alt={label} /> : null}
        <form method="dialog">
          <button type="submit" className="primary">
            {text.kyc.close}
          </button>
        </form>
      </dialog>
    </figure>
  );
}

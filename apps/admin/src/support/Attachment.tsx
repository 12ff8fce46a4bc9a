import { UPLOAD_ACCEPT_DOCUMENTS } from '@swx/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { failureMessage, fetchSupportFile, uploadSupportFile } from '../api.ts';
import { Alert } from '../Field.tsx';
import { fill } from '../text.ts';
import type { SupportText } from './support.text.ts';

/** A line's attachment: a picture shown, a PDF offered as a download (never opened in the back office). */
export function AttachmentView({ t, id }: { t: SupportText; id: string }) {
  const [file, setFile] = useState<{ url: string; pdf: boolean } | null>(null);
  useEffect(() => {
    let url: string | null = null;
    fetchSupportFile(id).then(
      (loaded) => {
        url = loaded.url;
        setFile(loaded);
      },
      () => setFile(null),
    );
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);
  if (!file) return null;
  if (file.pdf)
    return (
      <a className="attachment" href={file.url} download={`${id}.pdf`}>
        {t.document}
      </a>
    );
  return <img className="picture" src={file.url} alt={t.attachment} />;
}

/**
 * The agent's file for the next reply or note: uploaded at once (checked and re-encoded by the
 * server), its name said politely; `onChange` gets the upload's id, or null when cleared.
 */
export function AttachInput({
  t,
  attached,
  onChange,
}: {
  t: SupportText;
  attached: string | null;
  onChange: (id: string | null, name: string) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    if (attached === null && input.current) {
      input.current.value = '';
      setStatus('');
    }
  }, [attached]);
  return (
    <div className="support-attach">
      <label htmlFor={inputId}>{t.attach}</label>
      <input
        id={inputId}
        ref={input}
        type="file"
        accept={UPLOAD_ACCEPT_DOCUMENTS}
        onChange={(event) => {
          const file = event.target.files?.[0];
          setError('');
          if (!file) return onChange(null, '');
          setStatus(t.uploading);
          uploadSupportFile(file).then(
            (uploaded) => {
              setStatus(fill(t.attached, { name: file.name }));
              onChange(uploaded.id, file.name);
            },
            (failure: unknown) => {
              setStatus('');
              if (input.current) input.current.value = '';
              setError(failureMessage(failure, t.fileRefused));
              onChange(null, '');
            },
          );
        }}
      />
      <span className="hint" aria-live="polite">
        {status}
      </span>
      <Alert message={error} />
    </div>
  );
}

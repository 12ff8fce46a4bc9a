import { Code, UPLOAD_ACCEPT, UPLOAD_ISSUES, UPLOAD_PURPOSES, type UploadPurpose } from '@swx/contract';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { formatNumber } from '../../app/i18n.ts';
import { useClientState } from '../../app/state.ts';
import { type SniffedType, sniffFile, uploadFile } from './upload.ts';
import './ImageInput.css';

type Picked = {
  /** An object URL of the chosen file; null for JPEG 2000, which browsers cannot show. */
  preview: string | null;
  type: SniffedType;
  /** 0 to 1 while sending; null once the server has answered. */
  progress: number | null;
  uploaded: boolean;
};

/** The text of a refused or failed upload: ours for the size and content issues, else the server's. */
function failureText(t: TFunction, error: unknown, size: string): string {
  if (!(error instanceof ApiFailure)) return t('upload.error.failed');
  if (error.code === Code.FILE_TOO_LARGE) return t('upload.error.size', { size });
  if (error.code === Code.INVALID_INPUT && Array.isArray(error.data)) {
    const issue = (error.data as { issue?: unknown }[])[0]?.issue;
    if (typeof issue === 'string' && (UPLOAD_ISSUES as readonly string[]).includes(issue))
      return t(`upload.error.${issue}`);
  }
  return error.code < 0 ? t('upload.error.failed') : error.message;
}

/** The file's type by its bytes, and why it is refused before it is sent (too large, not an image). */
async function checkFile(file: File, purpose: UploadPurpose, size: string, t: TFunction) {
  const type = await sniffFile(file);
  const refusal =
    file.size > UPLOAD_PURPOSES[purpose].maxBytes
      ? t('upload.error.size', { size })
      : !type
        ? t('upload.error.type')
        : '';
  return { type, refusal };
}

/** A preview's object URL, released when it is replaced and when the input goes away. */
function useReleased(preview: string | null) {
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
}

/**
 * The chosen file, checked here first (its type by its bytes, its size), then sent at once with
 * its progress: `onChange` gets the stored upload's id (null while nothing is stored), and
 * `onBusyChange` says while it is being sent. A new choice cancels the sending before it.
 */
function useImageUpload(
  purpose: UploadPurpose,
  size: string,
  onChange: (id: string | null) => void,
  onBusyChange: ((busy: boolean) => void) | undefined,
) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [ownError, setOwnError] = useState('');
  const sending = useRef<AbortController | null>(null);

  useReleased(picked?.preview ?? null);
  useEffect(() => () => sending.current?.abort(), []);

  const busy = (value: boolean) => onBusyChange?.(value);

  const pick = async (file: File | null) => {
    sending.current?.abort();
    sending.current = null;
    onChange(null);
    setOwnError('');
    if (!file) {
      setPicked(null);
      busy(false);
      return;
    }
    const { type, refusal } = await checkFile(file, purpose, size, t);
    if (refusal) {
      setPicked(null);
      setOwnError(refusal);
      busy(false);
      return;
    }
    const controller = new AbortController();
    sending.current = controller;
    setPicked({
      preview: type === 'jp2' ? null : URL.createObjectURL(file),
      type,
      progress: 0,
      uploaded: false,
    });
    busy(true);
    try {
      const stored = await uploadFile(
        purpose,
        file,
        (progress) => setPicked((p) => (p ? { ...p, progress } : p)),
        controller.signal,
      );
      if (controller.signal.aborted) return;
      setPicked((p) => (p ? { ...p, progress: null, uploaded: true } : p));
      onChange(stored.id);
    } catch (failure) {
      if (controller.signal.aborted) return;
      setPicked(null);
      setOwnError(failureText(t, failure, size));
    }
    sending.current = null;
    busy(false);
  };
  return { picked, ownError, pick };
}

/** The chosen image (or why it cannot be shown), the sending's progress, and "uploaded" once stored. */
function ImagePreview({ picked, label }: { picked: Picked | null; label: string }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const percent =
    picked?.progress == null ? '' : formatNumber(language, picked.progress, { style: 'percent' });
  return (
    <>
      <div className="image-input-preview">
        {picked?.preview ? (
          <img src={picked.preview} alt={t('upload.previewOf', { label })} />
        ) : picked?.type === 'jp2' ? (
          <p className="muted small">{t('upload.previewUnavailable')}</p>
        ) : (
          <p className="muted small">{t('upload.noFile')}</p>
        )}
      </div>
      {picked?.progress != null ? (
        <div className="image-input-progress">
          <progress max={1} value={picked.progress} aria-label={label} />
          <span className="small" aria-hidden="true">
            {t('upload.uploading', { percent })}
          </span>
        </div>
      ) : null}
      <p className="small image-input-status" role="status">
        {picked?.uploaded ? t('upload.uploaded') : ''}
      </p>
    </>
  );
}

/**
 * One image for one upload purpose (spec §5): the file is checked here first (JPG, JPEG 2000 or
 * PNG by its bytes, within the purpose's limit), shown as a preview, then uploaded at once with
 * its progress; the server checks it again and answers its id, which the form sends. Errors are
 * in the reader's language: ours for size and content, else the server's catalogue text.
 */
export function ImageInput({
  purpose,
  label,
  name,
  error,
  onChange,
  onBusyChange,
}: {
  purpose: UploadPurpose;
  label: string;
  name: string;
  /** The form's error for this input (e.g. nothing chosen yet); the input's own error comes first. */
  error?: string | undefined;
  /** The stored upload's id, or null when cleared, refused or being replaced. */
  onChange: (id: string | null) => void;
  /** True while a file is being sent, so the form can wait for it. */
  onBusyChange?: (busy: boolean) => void;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const id = useId();
  const size = formatNumber(language, UPLOAD_PURPOSES[purpose].maxBytes / (1024 * 1024), {
    style: 'unit',
    unit: 'megabyte',
    maximumFractionDigits: 1,
  });
  const { picked, ownError, pick } = useImageUpload(purpose, size, onChange, onBusyChange);
  const shown = ownError || error || '';
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field image-input">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        name={name}
        accept={UPLOAD_ACCEPT}
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${hintId} ${errorId}` : hintId}
        onChange={(e) => void pick(e.target.files?.[0] ?? null)}
      />
      <p id={hintId} className="field-hint">
        {t('upload.limits', { size })}
      </p>
      <ImagePreview picked={picked} label={label} />
      {shown ? (
        <p id={errorId} className="field-error">
          {shown}
        </p>
      ) : null}
    </div>
  );
}

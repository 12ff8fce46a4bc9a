import { UPLOAD_ACCEPT, uploadFileUrl } from '@swx/contract';
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { StaffApiError, uploadContentImage } from '../api.ts';
import { Field } from '../Field.tsx';
import { issuesOf } from '../useDraftForm.ts';
import { type HelpText, useHelpText } from './help.text.ts';

/** Why the server refused an image, in the staff member's words. */
function refusalText(t: HelpText, error: unknown): string {
  if (!(error instanceof StaffApiError)) return t.imageFailed;
  if (error.code === 10034) return t.imageRefused.tooLarge;
  const [issue] = issuesOf(error.data);
  return (issue && (t.imageRefused as Record<string, string>)[issue.issue]) || t.imageFailed;
}

/** Markup's image: only our upload service's files (the server refuses any other). */
const imageMarkup = (alt: string, id: string) => `![${alt.replace(/[[\]]/g, '')}](${uploadFileUrl(id)})`;

/**
 * Adds an image to a text: a description first (read aloud to those who cannot see it), then a
 * file, uploaded through the upload service (checked by its bytes and re-encoded); its markup goes
 * at the end of the text, and the text's draft takes it when saved.
 */
export function ImageInsert({ onInsert }: { onInsert: (markup: string) => void }) {
  const t = useHelpText();
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [alt, setAlt] = useState('');
  const upload = useMutation({
    mutationFn: (file: File) => uploadContentImage(file),
    onSuccess: (uploaded) => {
      onInsert(imageMarkup(alt.trim(), uploaded.id));
      setAlt('');
    },
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });
  return (
    <fieldset className="help-image">
      <legend>{t.image}</legend>
      <Field
        label={t.imageAlt}
        hint={t.imageAltHint}
        name="imageAlt"
        dir="auto"
        maxLength={200}
        value={alt}
        onChange={(event) => setAlt(event.target.value)}
      />
      <div className="field">
        <label htmlFor={fileId}>{t.imageChoose}</label>
        <input
          ref={input}
          id={fileId}
          type="file"
          accept={UPLOAD_ACCEPT}
          disabled={upload.isPending || alt.trim() === ''}
          aria-describedby={`${fileId}-state`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) upload.mutate(file);
          }}
        />
      </div>
      <p id={`${fileId}-state`} role="status" className={upload.isError ? 'error' : 'muted'}>
        {upload.isPending
          ? t.imageUploading
          : upload.isError
            ? refusalText(t, upload.error)
            : upload.isSuccess
              ? t.imageAdded
              : alt.trim() === ''
                ? t.imageAltFirst
                : ''}
      </p>
    </fieldset>
  );
}

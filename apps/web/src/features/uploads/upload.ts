import {
  type RawEnvelope,
  REQUEST_TIMEOUT_MS,
  UPLOAD_FIELD,
  type UploadedFile,
  type UploadPurpose,
  uploadFileUrl,
} from '@swx/contract';
import { useEffect, useState } from 'react';
import { ApiFailure, answerOf, baseHeaders, urlOf } from '../../app/api.ts';
import { i18n } from '../../app/i18n.ts';
import { getState } from '../../app/state.ts';

export type SniffedType = 'jpeg' | 'png' | 'jp2' | null;

/** The image type by its first bytes, as the server checks it (never the name or declared type). */
export async function sniffFile(file: Blob): Promise<SniffedType> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const hex = Array.from(head, (b) => b.toString(16).padStart(2, '0')).join('');
  if (hex.startsWith('ffd8ff')) return 'jpeg';
  if (hex.startsWith('89504e470d0a1a0a')) return 'png';
  if (hex.startsWith('0000000c6a5020200d0a870a') || hex.startsWith('ff4fff51')) return 'jp2';
  return null;
}

/**
 * Uploads one file for a purpose (the contract's `upload` call, multipart/form-data). It goes
 * through XMLHttpRequest because fetch reports no upload progress; headers, envelope, 401 and
 * refusals are handled as callApi does. A network failure is ApiFailure -1, a timeout -2.
 */
export function uploadFile(
  purpose: UploadPurpose,
  file: Blob,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urlOf('upload', { purpose }));
    for (const [name, value] of Object.entries({ accept: 'application/json', ...baseHeaders() }))
      xhr.setRequestHeader(name, value);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: RawEnvelope | null = null;
      try {
        body = JSON.parse(xhr.responseText) as RawEnvelope;
      } catch {
        body = null;
      }
      // The envelope's rules, as for any call (a promise: its refusal rejects this one).
      resolve(answerOf('upload', xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiFailure(-1, i18n.t('upload.error.failed')));
    xhr.ontimeout = () => reject(new ApiFailure(-2, i18n.t('upload.error.failed')));
    xhr.onabort = () => reject(new DOMException('The upload was replaced.', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append(UPLOAD_FIELD, file, file instanceof File ? file.name : 'file');
    xhr.send(form);
  });
}

/**
 * One of my uploads as an object URL: the file route needs the session token, so it is fetched
 * and shown from a blob (the page's policy allows blob: images).
 */
export function useUploadedFile(id: string): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({ url: null, failed: false });
  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    const token = getState().token;
    fetch(uploadFileUrl(id), { headers: token ? { authorization: token } : {} })
      .then(async (response) => {
        if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('image/'))
          throw new Error('file');
        url = URL.createObjectURL(await response.blob());
        if (!cancelled) setState({ url, failed: false });
      })
      .catch(() => {
        if (!cancelled) setState({ url: null, failed: true });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);
  return state;
}

import { CUSTOMER_API_BASE, type Language } from '@swx/contract';
import { queryOptions } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callApi } from '../../app/api.ts';
import { getState } from '../../app/state.ts';

/** Verification and credit score carry the user and the language (server texts), like every query. */
const all = ['kyc'] as const;

export const kycQueries = {
  all,
  status: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'status', userId, language],
      queryFn: () => callApi('getIdentification'),
    }),
  creditScore: (userId: number, language: Language) =>
    queryOptions({
      queryKey: [...all, 'credit', userId, language],
      queryFn: () => callApi('getCreditScore'),
    }),
};

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

/** A file as base64 without the data: prefix. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * One of my submitted photos as an object URL: the photo call needs the session token, so it is
 * fetched and shown from a blob (the page's policy allows blob: images).
 */
export function useOwnPhoto(photoId: string): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; failed: boolean }>({ url: null, failed: false });
  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    const token = getState().token;
    fetch(`${CUSTOMER_API_BASE}/user/identificationPhoto/${photoId}`, {
      headers: token ? { authorization: token } : {},
    })
      .then(async (response) => {
        if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('image/'))
          throw new Error('photo');
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
  }, [photoId]);
  return state;
}

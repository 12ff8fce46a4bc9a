import type { Language, StaffInfo } from '@swx/contract';
import { createContext, useContext } from 'react';
import type { Text } from './text.ts';

/** What every back-office screen needs: the text, the language and the signed-in staff member. */
export type BackOfficeContext = { text: Text; language: Language; staff: StaffInfo | null };
export const Ctx = createContext<BackOfficeContext | null>(null);

export function useBackOffice(): BackOfficeContext {
  const value = useContext(Ctx);
  if (!value) throw new Error('no back-office context');
  return value;
}

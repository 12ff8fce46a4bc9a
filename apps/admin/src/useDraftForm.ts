import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { StaffApiError } from './api.ts';

/** What is wrong with each field, by field name: a reason the form words. */
export type Problems<Reason extends string> = Map<string, Reason>;

/** The server's field issues (10002 with `[{ path, issue }]`): each field named by its path's first part. */
export function issuesOf(data: unknown): { name: string; issue: string }[] {
  if (!Array.isArray(data)) return [];
  return (data as { path?: unknown; issue?: unknown }[]).map((item) => ({
    name: String(item.path ?? '').split('.')[0] ?? '',
    issue: String(item.issue ?? ''),
  }));
}

/**
 * A staff form over a draft (what the fields hold, as typed): `check` turns the draft into the
 * call's body or names what to fix; a submit checks, moves the focus to the first field to fix,
 * or saves, invalidates the area's queries and hands on what the server answered. The server's own
 * field issues (`fromServer`) mark the fields too.
 */
export function useDraftForm<Draft, Body, Saved, Reason extends string>(options: {
  initial: () => Draft;
  check: (draft: Draft) => { body: Body; problems: Problems<Reason> };
  save: (body: Body) => Promise<Saved>;
  invalidate: QueryKey;
  onSaved: (saved: Saved) => void;
  fromServer: (data: unknown) => Problems<Reason>;
}) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(options.initial);
  const [problems, setProblems] = useState<Problems<Reason>>(new Map());
  const save = useMutation({
    mutationFn: options.save,
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: options.invalidate });
      options.onSaved(saved);
    },
    onError: (error) => {
      if (error instanceof StaffApiError) setProblems(options.fromServer(error.data));
    },
  });
  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => setDraft((d) => ({ ...d, [name]: value }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, problems: found } = options.check(draft);
    setProblems(found);
    if (found.size > 0) {
      // The first field to fix takes the focus.
      const form = event.currentTarget;
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    save.mutate(body);
  };
  return { draft, set, setDraft, problems, submit, save };
}

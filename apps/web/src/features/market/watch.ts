import type { MarketItem } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { marketQueries } from './queries.ts';

/** The logged-in user's watchlist (ids and items) and a toggle that persists on the server. */
export function useWatchlist() {
  const user = useClientState((s) => s.userInfo);
  const isLogin = useClientState((s) => s.isLogin);
  const language = useClientState((s) => s.language);
  const queryClient = useQueryClient();
  const query = useQuery({
    ...marketQueries.watchlist(user?.id ?? 0, language),
    enabled: isLogin && user !== null,
  });
  const ids = new Set((query.data ?? []).map((i) => i.id));
  const toggle = useMutation({
    mutationFn: (item: MarketItem) =>
      callApi(ids.has(item.id) ? 'removeWatchlist' : 'addWatchlist', { body: { id: item.id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: marketQueries.watchlists }),
  });
  return { enabled: isLogin && user !== null, query, ids, toggle: (item: MarketItem) => toggle.mutate(item) };
}

import { desk } from '../lib/desk';
import { queryClient } from '../lib/queries';
import { useRoute } from '../lib/route';
import { useSession } from '../lib/session';
import { createChatStore, pageContext } from './store';

function localStorageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The app's chat: the desk client, the current route as page context, the app's query cache. */
export const useChat = createChatStore({
  client: desk,
  page: () => {
    const { path, query } = useRoute.getState();
    return pageContext(path, query);
  },
  unauthorized: () => useSession.getState().expired(),
  invalidate: (keys) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey: [...queryKey] });
  },
  storage: localStorageOrNull(),
});

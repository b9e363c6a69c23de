import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { LoadingScreen } from './guards';

/**
 * A page whose code is a chunk of its own, fetched the first time its route is visited: the
 * landing page never downloads the chart, the indicator maths or the admin panel.
 */
export interface LazyPage {
  /** Starts fetching the page's chunk; every call shares the first one's promise. */
  preload(): Promise<ComponentType>;
  /** The page once its chunk has arrived. */
  loaded(): ComponentType | undefined;
}

export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loading: Promise<ComponentType> | undefined;
  let page: ComponentType | undefined;
  return {
    preload: () =>
      (loading ??= load().then((module) => {
        page = pick(module);
        return page;
      })),
    loaded: () => page,
  };
}

/**
 * The page, or undefined while its chunk is on its way. Deliberately not React.lazy with
 * Suspense: React holds back content that resolves inside a Suspense boundary until its fallback
 * has been up for 300 ms, which on a fast connection made a page wait longer for React than for
 * its code.
 */
function useLoadedPage(page: LazyPage): ComponentType | undefined {
  const [, setArrived] = useState(0);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useEffect(() => {
    if (page.loaded()) return;
    let current = true;
    page.preload().then(
      () => current && setArrived((count) => count + 1),
      (error: unknown) => current && setFailure({ error }),
    );
    return () => {
      current = false;
    };
  }, [page]);
  // A chunk that failed to load is an error of the page, as a failed render would be.
  if (failure) throw failure.error;
  return page.loaded();
}

type Guard = ComponentType<{ children: ReactNode }>;

/**
 * A lazy page behind an optional guard. The chunk starts loading as soon as the route matches,
 * outside the guard: while the guard still shows 'Loading...' for the session, the page's code
 * arrives in parallel instead of after it.
 */
export function LazyRoute({ page, guard: Guard }: { page: LazyPage; guard?: Guard }) {
  const Page = useLoadedPage(page);
  const content = Page ? <Page /> : <LoadingScreen />;
  return Guard ? <Guard>{content}</Guard> : content;
}

import { lazy, type ComponentType } from 'react';

export interface LazyPage {
  (): React.ReactElement;
  /** Loads the page's chunk; once loaded, the page renders without suspending. */
  preload(): Promise<void>;
}

/**
 * A page in its own chunk. Unlike a bare React.lazy, a page that was preloaded
 * renders synchronously — so a prerendered page hydrates in one pass, with no
 * window in which a navigation could meet a still-dehydrated boundary.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let Loaded: ComponentType | null = null;
  const preload = async () => {
    Loaded ??= (await load()).default;
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: Loaded as ComponentType };
  });
  const Page = () => (Loaded ? <Loaded /> : <Lazy />);
  return Object.assign(Page, { preload });
}

import { useEffect, useState } from 'preact/hooks';

export type Async<T> =
  | { status: 'loading' }
  | { status: 'done'; value: T }
  | { status: 'failed'; error: string };

/** Runs `load` when `deps` change; an answer for older deps is dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Async<T> {
  const [state, setState] = useState<Async<T>>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (value) => current && setState({ status: 'done', value }),
      (error: unknown) =>
        current &&
        setState({
          status: 'failed',
          error: error instanceof Error ? error.message : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, deps); // the caller names what `load` depends on
  return state;
}

/** A value the UI can watch: the smallest observable, so the data layer needs no framework. */
export interface Watchable<T> {
  get(): T;
  subscribe(listener: (value: T) => void): () => void;
}

export interface Store<T> extends Watchable<T> {
  set(value: T): void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set: (next) => {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of [...listeners]) listener(value);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

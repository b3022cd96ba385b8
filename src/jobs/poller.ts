/**
 * The one in-process polling loop of the workers (the outbox relay, the delivery and status-mail
 * dispatchers): a pass runs every `intervalMs`; a pass that found work (`pass` resolves to more
 * than 0) is followed by the next at once, so a burst drains without waiting a poll; passes never
 * overlap (the next is scheduled when one ends); a failed pass goes to `onError` and polling goes
 * on; `stop` cancels the timer and waits for the pass in flight, so closing the pools afterwards
 * is safe.
 */
export interface Poller {
  stop: () => Promise<void>;
}

export function startPoller(options: {
  intervalMs: number;
  /** One pass; resolves to how much it did (0: nothing, wait a poll). */
  pass: () => Promise<number>;
  onError: (error: unknown) => void;
}): Poller {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const schedule = (busy: boolean) => {
    if (stopped) return;
    timer = setTimeout(tick, busy ? 0 : options.intervalMs);
    timer.unref();
  };
  const tick = () => {
    inFlight = options
      .pass()
      .then((done) => schedule(done > 0))
      .catch((error: unknown) => {
        options.onError(error);
        schedule(false);
      });
  };
  schedule(false);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}

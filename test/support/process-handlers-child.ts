/**
 * A process with the service's process handlers and a stand-in service whose stop takes 300 ms
 * (test/e2e/process-handlers.test.ts). `node --import tsx process-handlers-child.ts <mode>`:
 *   rejection: an unhandled rejection, then an uncaught exception 200 ms later;
 *   signal:    waits for SIGTERM / SIGINT.
 */
import { pino } from 'pino';
import { installProcessHandlers } from '../../src/process-handlers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The marks go through the handlers' own logger: one stream, so the test can rely on their order
// (console.log and pino's writes to the same pipe can interleave either way).
const logger = pino({ level: 'info' });
installProcessHandlers({
  logger,
  service: {
    stop: async () => {
      logger.info('stop began');
      await sleep(300);
      logger.info('stopped in order');
    },
  },
  exiting: null,
  hardLimitSeconds: 10,
});
// Keeps the process alive like a listening server.
setInterval(() => {}, 1000);
if (process.argv[2] === 'rejection') {
  void Promise.reject(new Error('nobody awaited this'));
  setTimeout(() => {
    logger.info('still running');
    setTimeout(() => {
      throw new Error('state unknown');
    }, 10);
  }, 200);
}
logger.info('ready');

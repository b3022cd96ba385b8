import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../cryptography/source/grammars';
import { parserFor } from '../../cryptography/source/parser';
import {
  collectCodeInventoryInThread,
  endIdleInventoryThreads,
  inventoryThreadsStarted,
  keepTreeSitterCompiled,
} from './inventory-thread';

describe('keepTreeSitterCompiled', () => {
  it('compiles the runtime and every grammar the detectors load, once per process', async () => {
    const modules = await keepTreeSitterCompiled();
    // A missing or unreadable file would leave the list empty (the saving lost, not the scan).
    expect(modules).toHaveLength(GRAMMARS.length + 1);
    expect(await keepTreeSitterCompiled()).toBe(modules);
  });

  it('lists the grammars the parser loads', async () => {
    for (const grammar of GRAMMARS) await expect(parserFor(grammar)).resolves.toBeDefined();
  });
});

describe('collectCodeInventoryInThread', () => {
  const options = (signal = new AbortController().signal) => ({
    signal,
    timeoutMs: 120_000,
    maxHeapMb: 256,
  });

  it('keeps its thread for the next checkout, and ends it when it fails', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'driftwatch-inventory-thread-'));
    try {
      writeFileSync(
        join(checkout, 'keys.js'),
        "const { generateKeyPairSync } = require('node:crypto');\ngenerateKeyPairSync('rsa', { modulusLength: 1024 });\n",
      );
      const before = inventoryThreadsStarted();
      const first = await collectCodeInventoryInThread(checkout, new Date(), options());
      const second = await collectCodeInventoryInThread(checkout, new Date(), options());
      expect(first.findings.map((f) => f.algorithm)).toEqual(['RSA']);
      expect(second.findings).toEqual(first.findings);
      // One thread served both.
      expect(inventoryThreadsStarted() - before).toBe(1);

      // A thread that fails (here: out of time, as an aborted scan's would be) is ended.
      for (let n = 0; n < 300; n += 1) writeFileSync(join(checkout, `f${n}.js`), 'let a = 1;\n');
      const late = collectCodeInventoryInThread(checkout, new Date(), {
        ...options(),
        timeoutMs: 1,
      });
      await expect(late).rejects.toThrow('not done in 1 ms');
      const stop = new AbortController();
      stop.abort();
      await expect(
        collectCodeInventoryInThread(checkout, new Date(), options(stop.signal)),
      ).rejects.toThrow('stopped with the scan');
      // The stopped thread was ended, not kept: the next checkout gets a new one.
      await collectCodeInventoryInThread(checkout, new Date(), options());
      expect(inventoryThreadsStarted() - before).toBe(2);
    } finally {
      await endIdleInventoryThreads();
      rmSync(checkout, { recursive: true, force: true });
    }
  }, 120_000);
});

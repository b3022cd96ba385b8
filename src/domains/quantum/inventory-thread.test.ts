import { describe, expect, it } from 'vitest';
import { GRAMMARS } from '../../cryptography/source/grammars';
import { parserFor } from '../../cryptography/source/parser';
import { keepTreeSitterCompiled } from './inventory-thread';

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

import { describe, expect, it } from 'vitest';
import { booleanParam } from './boolean-param';
import { closesCycle, graphTree } from './graph-tree';
import { inProgress, pollUntil } from './polling';

const node = (nodeId: string, kind = 'package') => ({ nodeId, kind });

describe('graphTree', () => {
  it('hangs children under parents in edge order, files first among the roots', () => {
    const tree = graphTree({
      nodes: [node('a'), node('file:package-lock.json', 'file'), node('b'), node('c'), node('x')],
      edges: [
        { from: 'file:package-lock.json', to: 'a' },
        { from: 'file:package-lock.json', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'c' },
        { from: 'a', to: 'c' },
      ],
    });
    expect(tree.roots).toEqual(['file:package-lock.json', 'x']);
    expect(tree.children.get('file:package-lock.json')).toEqual(['a', 'b']);
    expect(tree.children.get('a')).toEqual(['c']);
    expect(tree.children.get('b')).toEqual(['c']);
    expect(tree.children.get('c')).toBeUndefined();
  });

  it('drops edges to nodes the (truncated) graph does not carry', () => {
    const tree = graphTree({
      nodes: [node('f', 'file'), node('a')],
      edges: [{ from: 'f', to: 'zz' }],
    });
    expect(tree.children.get('f')).toBeUndefined();
    expect(tree.roots).toEqual(['f', 'a']);
  });

  it('cuts a cycle where it closes', () => {
    expect(closesCycle(['f', 'a', 'b'], 'a')).toBe(true);
    expect(closesCycle(['f', 'a', 'b'], 'c')).toBe(false);
  });
});

describe('pollUntil', () => {
  it('reads until finished, reporting each value, sleeping between reads', async () => {
    const states = ['queued', 'running', 'running', 'completed', 'never'];
    const seen: string[] = [];
    const sleeps: number[] = [];
    const last = await pollUntil(
      async () => states.shift() ?? 'none',
      (state) => !inProgress(state),
      (state) => seen.push(state),
      { intervalMs: 10, sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(last).toBe('completed');
    expect(seen).toEqual(['queued', 'running', 'running', 'completed']);
    expect(sleeps).toEqual([10, 10, 10]);
  });

  it('stops when the signal aborts and reports nothing after it', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    let n = 0;
    await pollUntil(
      async () => {
        n++;
        if (n === 2) controller.abort();
        return n;
      },
      () => false,
      (value) => seen.push(value),
      { signal: controller.signal, sleep: async () => {} },
    );
    expect(seen).toEqual([1]);
  });

  it('gives up after maxReads', async () => {
    let reads = 0;
    await pollUntil(
      async () => ++reads,
      () => false,
      () => {},
      { maxReads: 3, sleep: async () => {} },
    );
    expect(reads).toBe(3);
  });

  it('treats queued and running as in progress, anything else as finished', () => {
    expect(
      ['queued', 'running', 'completed', 'failed', 'cancelled', 'new'].map(inProgress),
    ).toEqual([true, true, false, false, false, false]);
  });
});

describe('booleanParam', () => {
  it('reads true and false only', () => {
    expect(booleanParam('?direct=true', 'direct')).toBe(true);
    expect(booleanParam('?direct=false', 'direct')).toBe(false);
    expect(booleanParam('?direct=yes', 'direct')).toBeNull();
    expect(booleanParam('', 'direct')).toBeNull();
  });
});

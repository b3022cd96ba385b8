import { scanSourceTree } from '../src/cryptography/source/scan';
import { SOURCE_DETECTORS } from '../src/cryptography/source/detectors';
import { collectInventory } from '../src/domains/quantum/inventory';
const dir = process.env.TREE ?? '/tmp/qprof/checkout';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
async function t(label: string, f: () => Promise<unknown>) {
  const xs: number[] = [];
  for (let i = 0; i < 5; i++) { const c = cpu(); await f(); xs.push(cpu() - c); }
  xs.sort((a, b) => a - b); console.log(label.padEnd(30), xs[2].toFixed(0), 'ms');
}
const walkOnly = SOURCE_DETECTORS.map((d) => ({ ...d, mayContain: () => false }));
const prefOnly = SOURCE_DETECTORS.map((d) => ({ ...d, detect: async () => ({ uses: [], algorithms: [] }) }));
await collectInventory(dir, [], new Date());
await t('walk+read (no visit)', () => scanSourceTree(dir, { detectors: walkOnly }));
await t('walk+read+visit noop', () => scanSourceTree(dir, { detectors: walkOnly, visitFile: () => {} }));
await t('walk+read+prefilter', () => scanSourceTree(dir, { detectors: prefOnly }));
await t('scanSourceTree', () => scanSourceTree(dir, {}));
await t('collectInventory', () => collectInventory(dir, [], new Date()));

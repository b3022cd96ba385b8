import { collectInventory } from '../src/domains/quantum/inventory';
const dir = '/tmp/qprof/checkout';
for (let i = 0; i < 5; i++) {
  const c = process.cpuUsage();
  const inv = await collectInventory(dir, [], new Date());
  const u = process.cpuUsage(c);
  console.log(((u.user + u.system) / 1000).toFixed(0), 'ms', inv.filesRead, inv.findings.length, inv.algorithms.length);
}

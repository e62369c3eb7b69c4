// Reads a V8 .cpuprofile (node --cpu-prof) and lists where the samples fell: self time per function,
// and per "area" (our worker code, undici, pg, node internals, garbage collection, idle), which is
// what tells whether the worker is bound by HTTP, by Postgres round trips or by its own code.
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface CpuProfileSummary {
  totalMs: number;
  byArea: { area: string; ms: number; share: number }[];
  topFunctions: { name: string; ms: number; share: number }[];
}

function areaOf(url: string, name: string): string {
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'v8 (program)';
  if (url.includes('/node_modules/undici/')) return 'undici (HTTP)';
  if (url.includes('/node_modules/pg') || url.includes('/node_modules/pg-')) return 'pg (Postgres client)';
  if (url.includes('/worker/')) return 'worker/';
  if (url.includes('/lib/')) return 'lib/';
  if (url.includes('/node_modules/')) return 'other node_modules';
  if (url.startsWith('node:') || url === '') return 'node internals';
  return 'other';
}

export async function summarizeCpuProfile(file: string, top = 15): Promise<CpuProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    totalUs += us;
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const file = frame.url.replace(/^file:\/\//, '').replace(/^.*?\/(node_modules\/|worker\/|lib\/|bench\/)/, '$1');
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const share = (us: number) => Math.round((us / Math.max(1, totalUs)) * 1000) / 10;
  return {
    totalMs: Math.round(totalUs / 1000),
    byArea: [...areas]
      .sort((a, b) => b[1] - a[1])
      .map(([area, us]) => ({ area, ms: Math.round(us / 1000), share: share(us) })),
    topFunctions: [...functions]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), share: share(us) })),
  };
}

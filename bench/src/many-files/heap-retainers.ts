/**
 * One-off probe (issue 47): what the folder-drop bench page keeps after Clear list. Drops a folder of
 * `HEAP_FILES` (10000) files into `HEAP_MODE` (uploader | hook-virtual), waits until every file is tracked,
 * Cancel all, Clear list, then takes a V8 heap snapshot (after two forced collections) and prints the groups by
 * constructor with the most retained-by-count objects, and the shortest retainer path from the GC roots of one
 * object of each of the biggest groups, and which of `<Uploader>`'s two fibers (React's current and alternate) still
 * holds files. Run: `pnpm --filter @upbeam/bench exec tsx src/many-files/heap-retainers.ts`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchCdpBrowser, type CdpPage } from '../lib/cdp-browser';
import { BENCH_DIR, TMP_DIR } from '../lib/paths';
import { packageVersion } from '../lib/machine';
import { buildPage, startPageServer } from '../upload/page-server';
import { startS3rverTarget } from '../upload/targets';
import type { FolderDropState } from './folder-drop-page';

const count = Number(process.env.HEAP_FILES ?? 10_000);
const mode = process.env.HEAP_MODE ?? 'uploader';
const PAGE_OUT = join(TMP_DIR, 'folder-drop');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function makeFolder(): Promise<string> {
  const drop = join('/dev/shm', `upbeam-heap-${count}`, 'drop');
  if ((await readdir(drop).catch(() => [])).length > 0) return drop;
  const bytes = new Uint8Array(4096);
  for (let folder = 0; folder * 1000 < count; folder++) {
    const directory = join(drop, `part-${String(folder).padStart(2, '0')}`);
    await mkdir(directory, { recursive: true });
    for (let index = folder * 1000; index < Math.min(count, (folder + 1) * 1000); index++) {
      await writeFile(join(directory, `file-${String(index).padStart(5, '0')}.bin`), bytes);
    }
  }
  return drop;
}

async function snapshot(page: CdpPage): Promise<HeapSnapshot> {
  await page.send('HeapProfiler.enable');
  await page.send('HeapProfiler.collectGarbage');
  await page.send('HeapProfiler.collectGarbage');
  const chunks: string[] = [];
  const off = page.on('HeapProfiler.addHeapSnapshotChunk', (params) => chunks.push(params.chunk as string));
  await page.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  off();
  return JSON.parse(chunks.join('')) as HeapSnapshot;
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

function analyse(heap: HeapSnapshot, label: string): void {
  const { meta } = heap.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [typeF, nameF, selfF, edgeCountF] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const [eTypeF, eNameF, eToF] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const n = heap.nodes.length / nf;
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) firstEdge[i + 1] = firstEdge[i]! + heap.nodes[i * nf + edgeCountF!]!;
  const nodeName = (i: number) => `${nodeTypes[heap.nodes[i * nf + typeF!]!]}:${heap.strings[heap.nodes[i * nf + nameF!]!]!.slice(0, 60)}`;
  const edgeName = (e: number) => {
    const type = edgeTypes[heap.edges[e + eTypeF!]!];
    const name = heap.edges[e + eNameF!]!;
    return type === 'element' || type === 'hidden' ? `[${name}]` : `${type}:${heap.strings[name]}`;
  };
  // Shortest paths from the root (node 0), strong edges only.
  const parent = new Int32Array(n).fill(-1);
  const parentEdge = new Int32Array(n).fill(-1);
  parent[0] = 0;
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const from = queue[head]!;
    for (let e = firstEdge[from]! * ef; e < firstEdge[from + 1]! * ef; e += ef) {
      if (edgeTypes[heap.edges[e + eTypeF!]!] === 'weak') continue;
      const to = heap.edges[e + eToF!]! / nf;
      if (parent[to] !== -1) continue;
      parent[to] = from;
      parentEdge[to] = e;
      queue.push(to);
    }
  }
  const groups = new Map<string, { count: number; bytes: number; sample: number }>();
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (parent[i] === -1) continue;
    const key = nodeName(i).replace(/^(string|concatenated string|sliced string):.*/, '$1');
    const self = heap.nodes[i * nf + selfF!]!;
    total += self;
    const group = groups.get(key) ?? { count: 0, bytes: 0, sample: i };
    group.count++;
    group.bytes += self;
    groups.set(key, group);
  }
  const top = [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 25);
  console.log(`\n== ${label}: ${n} nodes, ${(total / 1e6).toFixed(2)} MB reachable (self sizes)`);
  for (const [key, { count, bytes }] of top) console.log(`${(bytes / 1e3).toFixed(0).padStart(8)} kB ${String(count).padStart(7)}  ${key}`);
  for (const [key, group] of top.filter(([, g]) => g.count >= count * 0.9).slice(0, 8)) {
    const path: string[] = [];
    for (let at = group.sample; at !== 0 && path.length < 40; at = parent[at]!) path.push(`${edgeName(parentEdge[at]!)} -> ${nodeName(at)}`);
    console.log(`\n-- retainers of one ${key} (root first):\n  ${path.reverse().join('\n  ')}`);
  }
}

const folder = await makeFolder();
await buildPage({ entry: join(BENCH_DIR, 'src', 'many-files', 'folder-drop-page.tsx'), outDir: PAGE_OUT });
const server = await startPageServer(PAGE_OUT);
const target = await startS3rverTarget(server.origin, packageVersion('@20minutes/s3rver', join(BENCH_DIR, '..', 'packages', 'local-s3')));
server.setTarget(target);
const browser = await launchCdpBrowser();
try {
  const page = await browser.newPage(`${server.origin}/`);
  while (!(await page.evaluate<boolean>(`typeof window.folderDrop === 'object'`).catch(() => false))) await sleep(50);
  const at = await page.evaluate<{ x: number; y: number }>(`window.folderDrop.setup(${JSON.stringify({ client: mode, concurrency: 3, count })})`);
  const usage = async () => {
    await page.send('HeapProfiler.collectGarbage');
    await page.send('HeapProfiler.collectGarbage');
    return ((await page.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize / 1e6).toFixed(2);
  };
  const before = await usage();
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) await page.send('Input.dispatchDragEvent', { type, x: at.x, y: at.y, data });
  for (let waited = 0; waited < 120_000; waited += 250) {
    await sleep(250);
    const state = await page.evaluate<FolderDropState>('window.folderDrop.state()');
    if (state.allFoundMs !== undefined) break;
  }
  await page.evaluate('window.folderDrop.stop()');
  const held = await usage();
  await page.evaluate('window.folderDrop.clear()');
  const cleared = await usage();
  // Which of the two fibers React keeps per component (current and alternate) still holds the old files?
  const fibers = await page.evaluate(`(() => {
    const section = document.querySelector('[data-upbeam="root"]');
    if (!section) return 'no <Uploader> root';
    const fiber = section[Object.keys(section).find((key) => key.startsWith('__reactFiber$'))].return;
    const files = (props) => props?.upload?.files?.length;
    const root = fiber;
    let top = fiber; while (top.return) top = top.return;
    return { pending: files(fiber.pendingProps), memoized: files(fiber.memoizedProps), alternatePending: files(fiber.alternate?.pendingProps), alternateMemoized: files(fiber.alternate?.memoizedProps), isCurrentTree: top.stateNode?.current === top || top.stateNode?.current === top.alternate ? (top.stateNode.current === top ? 'fiber in current tree' : 'fiber in alternate tree') : '?' };
  })()`);
  console.log('Uploader fibers after Clear list:', JSON.stringify(fibers));
  console.log(`${mode}, ${count} files: heap ${before} MB before, ${held} MB held, ${cleared} MB after Clear list`);
  // The hook renders once more after the list empties (its effect, after the frame Clear list drew).
  await sleep(200);
  console.log(`200 ms later: ${await usage()} MB`);
  analyse(await snapshot(page), `${mode} after Clear list`);
} finally {
  await browser.close().catch(() => {});
  await target.close().catch(() => {});
  await server.close().catch(() => {});
}

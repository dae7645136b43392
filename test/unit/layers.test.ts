import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const src = join(root, 'src');

/** The layer table of ARCHITECTURE.md: module (a folder or a top-level file) → layer. */
function layerTable(): Map<string, number> {
  const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const layers = new Map<string, number>();
  for (const row of doc.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    for (const name of (row[2] ?? '').matchAll(/`([^`]+)`/g))
      layers.set((name[1] ?? '').replace(/\/$/, ''), Number(row[1]));
  }
  return layers;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The module a file of src/ belongs to: its top folder, or itself at the top. */
const moduleOf = (file: string) => relative(src, file).split('/')[0] ?? '';

const imports = files(src).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*?from '([^']+)'/gms)].map((m) => ({
    file,
    spec: m[1] ?? '',
  })),
);

/**
 * Every import of one file of src/ by another: static ones (`import type` too), re-exports, and
 * lazy `import()` and `require()` of a module.
 */
const fileEdges = files(src).flatMap((file) => {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...[...text.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)'/gms)].map((m) => m[1] ?? ''),
    ...[...text.matchAll(/\b(?:import|require)\('(\.[^']+)'\)/g)].map((m) => m[1] ?? ''),
  ];
  return specs.map((spec) => ({ from: file, to: resolveTs(file, spec) }));
});

/** The file a relative import names: `x.ts`, or `x/index.ts`. */
function resolveTs(file: string, spec: string): string {
  const base = resolve(file, '..', spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this one.
    }
  }
  return `${base}.ts`;
}

/**
 * The circles of an import graph: its strongly connected components of more than one file (or a
 * file importing itself), each as its files in order, found by Tarjan's algorithm.
 */
function circles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Imports that break the rule: a relative import into another module of the same or a higher layer. */
function upward(list: readonly { file: string; spec: string }[], layers: ReadonlyMap<string, number>): string[] {
  const layerOf = (m: string) => layers.get(m) ?? layers.get(m.replace(/\.ts$/, '')) ?? Number.NaN;
  return list
    .filter(({ spec }) => spec.startsWith('.'))
    .map(({ file, spec }) => ({ from: moduleOf(file), to: moduleOf(`${resolve(file, '..', spec)}.ts`), file, spec }))
    .filter(({ from, to }) => from !== to && !(layerOf(to) < layerOf(from)))
    .map(({ file, spec }) => `${relative(root, file)} imports ${spec}`);
}

describe('layers (ARCHITECTURE.md)', () => {
  const layers = layerTable();

  test('the table places every module of src/', () => {
    const unplaced = [...new Set(files(src).map(moduleOf))].filter(
      (m) => !layers.has(m.replace(/\.ts$/, '')) && !layers.has(m),
    );
    expect(unplaced).toEqual([]);
    expect(layers.size).toBeGreaterThan(20);
  });

  test('imports only go down the layers, or stay in their own folder', () => {
    expect(imports.length).toBeGreaterThan(100);
    expect(upward(imports, layers)).toEqual([]);
  });

  test('the check catches an upward, a sideways and an unplaced import', () => {
    const made = [
      { file: join(src, 'store', 'world.ts'), spec: '../routes/list' },
      { file: join(src, 'routes', 'list.ts'), spec: '../admin/context' },
      { file: join(src, 'query', 'sort.ts'), spec: '../nowhere/x' },
      { file: join(src, 'routes', 'list.ts'), spec: '../store/world' },
    ];
    expect(upward(made, layers)).toEqual([
      'src/store/world.ts imports ../routes/list',
      'src/routes/list.ts imports ../admin/context',
      'src/query/sort.ts imports ../nowhere/x',
    ]);
  });

  test('no import circle, type imports included, within a folder or across', () => {
    expect(fileEdges.length).toBeGreaterThan(400);
    expect(circles(fileEdges).map((c) => c.map((f) => relative(root, f)))).toEqual([]);
  });

  test('the circle check finds a circle of types, and one of a file with itself', () => {
    const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'];
    expect(
      circles([
        { from: a, to: b },
        { from: b, to: c },
        { from: c, to: a },
        { from: c, to: c },
      ]),
    ).toEqual([[a, b, c]]);
    expect(circles([{ from: a, to: a }])).toEqual([[a]]);
    expect(circles([{ from: a, to: b }])).toEqual([]);
  });

  test('the lower layers never import express, and generators and store know no status code', () => {
    const express = imports.filter(
      ({ file, spec }) => (layers.get(moduleOf(file)) ?? 99) <= 6 && spec.startsWith('express'),
    );
    expect(express.map(({ file }) => relative(root, file))).toEqual([]);
    const statusAware = files(src)
      .filter((file) => ['generators', 'store'].includes(moduleOf(file)))
      .filter((file) => /\bApiError\b/.test(readFileSync(file, 'utf8')));
    expect(statusAware.map((file) => relative(root, file))).toEqual([]);
  });
});

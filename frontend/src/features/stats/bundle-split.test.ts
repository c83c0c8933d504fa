/**
 * The statistics screen is a lazily loaded chunk (design §6): the scripts index.html loads up
 * front must not carry chart.js, react-chartjs-2 or the stats feature. Reads the production
 * build's source maps; skipped when `dist/` has not been built (`npm run build`).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist');
const indexHtml = path.join(dist, 'index.html');
const CHART_SOURCES = /node_modules\/(chart\.js|react-chartjs-2|@kurkle)\//;
const STATS_SOURCES = /src\/features\/stats\//;

function sourcesOf(script: string): string[] {
  const map = path.join(dist, `${script}.map`);
  if (!existsSync(map)) return [];
  const parsed = JSON.parse(readFileSync(map, 'utf8')) as { sources?: unknown };
  return Array.isArray(parsed.sources) ? parsed.sources.filter((s): s is string => typeof s === 'string') : [];
}

describe.skipIf(!existsSync(indexHtml))('production bundle split', () => {
  const html = existsSync(indexHtml) ? readFileSync(indexHtml, 'utf8') : '';
  const initial = Array.from(html.matchAll(/<script[^>]*\ssrc="?\/?([^"\s>]+\.js)/g), (m) => m[1] ?? '');
  const assets = existsSync(path.join(dist, 'assets')) ? readdirSync(path.join(dist, 'assets')) : [];
  const lazy = assets.filter((name) => name.endsWith('.js')).map((name) => `assets/${name}`).filter((s) => !initial.includes(s));

  it('the initial scripts carry neither chart.js nor the statistics feature', () => {
    expect(initial.length).toBeGreaterThan(0);
    for (const script of initial) {
      const sources = sourcesOf(script);
      expect(sources.length, `${script} has a source map`).toBeGreaterThan(0);
      expect(sources.filter((s) => CHART_SOURCES.test(s) || STATS_SOURCES.test(s))).toEqual([]);
    }
  });

  it('a lazily loaded chunk carries chart.js and the statistics page', () => {
    const lazySources = lazy.flatMap(sourcesOf);
    expect(lazySources.some((s) => /node_modules\/chart\.js\//.test(s))).toBe(true);
    expect(lazySources.some((s) => /features\/stats\/components\/statistics-page/.test(s))).toBe(true);
  });
});

/**
 * The gallery route's JavaScript budget: `/gifs` runs on the scripts `index.html` loads (the
 * gallery is in the main bundle; other screens are chunks), and those stay within 100 KiB gzip.
 * Reads the production build; skipped when `dist/` has not been built (`npm run build`).
 * `cargo xtask bench web` measures the same in the browser, next to Lighthouse's scores.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const indexHtml = path.join(dist, 'index.html');
const BUDGET_BYTES = 100 * 1024;

describe.skipIf(!existsSync(indexHtml))('gallery route JavaScript', () => {
  it('the scripts index.html loads are at most 100 KiB gzip', () => {
    const html = readFileSync(indexHtml, 'utf8');
    const scripts = Array.from(html.matchAll(/<script[^>]*\ssrc="?\/?([^"\s>]+\.js)/g), (m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    const gzip = scripts.reduce((sum, script) => {
      return sum + gzipSync(readFileSync(path.join(dist, script)), { level: 9 }).length;
    }, 0);
    expect(gzip, `${scripts.join(', ')}: ${(gzip / 1024).toFixed(1)} KiB gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});

/** The web app's copy of the server's limits (`limits.ts`) against the domain's constants. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as limits from './limits';

const domainDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../crates/domain/src');

function rustFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return rustFiles(full);
    return name.endsWith('.rs') ? [full] : [];
  });
}

/** Every `pub const NAME: usize = N;` of the domain crate. */
function domainConstants(): Map<string, number> {
  const constants = new Map<string, number>();
  for (const file of rustFiles(domainDir)) {
    for (const [, name, value] of readFileSync(file, 'utf8').matchAll(/pub const ([A-Z0-9_]+): usize = ([0-9_]+);/g)) {
      constants.set(name!, Number(value!.replaceAll('_', '')));
    }
  }
  return constants;
}

describe('limits', () => {
  it('each limit is the domain constant of its name', () => {
    const domain = domainConstants();
    const shared = Object.entries(limits).filter(([name]) => name !== 'DEFAULT_MAX_UPLOAD_BYTES');
    expect(shared.length).toBeGreaterThan(0);
    for (const [name, value] of shared) {
      expect({ name, value: domain.get(name) }).toEqual({ name, value });
    }
  });

  it('the default upload size is the server default of GIFSHELF_MAX_UPLOAD_MB', () => {
    const serverDir = path.resolve(domainDir, '../../server/src');
    const config = rustFiles(serverDir)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const megabytes = /"GIFSHELF_MAX_UPLOAD_MB",[^;]*?, (\d+)\)/.exec(config)?.[1];
    expect(megabytes).toBeDefined();
    expect(limits.DEFAULT_MAX_UPLOAD_BYTES).toBe(Number(megabytes) * 1024 * 1024);
  });
});

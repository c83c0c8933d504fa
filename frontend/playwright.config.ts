/**
 * End-to-end tests against the real server: `GIFSHELF_BIN=/path/to/gifshelf npm run e2e`
 * (defaults to release/gifshelf, then debug/gifshelf under E2E_TARGET_DIR or ../target). Build the SPA first
 * (`npm run build`); the server serves it from frontend/dist. Each run gets a fresh data dir.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.E2E_PORT ?? 18080);
const baseURL = `http://127.0.0.1:${port}`;
// Third-party sign-in runs on a second server configured against the tests' fake OpenID provider
// (`gifshelf-fake-oidc`, built from crates/auth with the `testing` feature).
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? port + 1);
const googlePort = Number(process.env.E2E_GOOGLE_PORT ?? port + 2);
process.env.E2E_OIDC_ISSUER = `http://127.0.0.1:${oidcPort}`;
process.env.E2E_GOOGLE_URL = `http://127.0.0.1:${googlePort}`;
process.env.E2E_GOOGLE_CLIENT_ID = 'gifshelf-e2e.apps.example.com';

function binary(envName: string, name: string): string {
  const configured = process.env[envName];
  if (configured) return configured;
  const target = process.env.E2E_TARGET_DIR ?? path.resolve(here, '../target');
  const candidates = [path.join(target, 'release', name), path.join(target, 'debug', name)];
  return candidates.find((p) => existsSync(p)) ?? candidates[1]!;
}
const serverBinary = () => binary('GIFSHELF_BIN', 'gifshelf');

// The config is evaluated in the runner and in each worker: create the data dir once and
// hand it down through the environment.
process.env.GIFSHELF_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'gifshelf-e2e-'));
process.env.GIFSHELF_E2E_GOOGLE_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'gifshelf-e2e-google-'));
// The server binary too, for tests that run its CLI against the same data dir (`grantAdmin`).
process.env.GIFSHELF_E2E_BIN ??= serverBinary();

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: path.join(process.env.E2E_TARGET_DIR ?? path.resolve(here, '../target'), 'e2e-results'),
  use: {
    baseURL,
    trace: 'retain-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      command: `"${process.env.GIFSHELF_E2E_BIN}" serve`,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        GIFSHELF_BIND: `127.0.0.1:${port}`,
        GIFSHELF_DATA_DIR: process.env.GIFSHELF_E2E_DATA_DIR,
        GIFSHELF_WEB_DIR: path.resolve(here, 'dist'),
        // Every spec registers its own accounts from this one address.
        GIFSHELF_REGISTER_MAX_PER_ADDRESS: '10000',
        // Admins may store Slack signing secrets (sealed with it).
        GIFSHELF_SECRETS_KEY: 'q0dAa2G3mY8lT1Pz0sQXb7d0tq3Y0Zr5o2w3U4c5V6E=',
      },
    },
    {
      command: `"${binary('GIFSHELF_FAKE_OIDC_BIN', 'gifshelf-fake-oidc')}" ${oidcPort}`,
      url: `${process.env.E2E_OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `"${process.env.GIFSHELF_E2E_BIN}" serve`,
      url: `${process.env.E2E_GOOGLE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        GIFSHELF_BIND: `127.0.0.1:${googlePort}`,
        GIFSHELF_DATA_DIR: process.env.GIFSHELF_E2E_GOOGLE_DATA_DIR,
        GIFSHELF_WEB_DIR: path.resolve(here, 'dist'),
        GIFSHELF_GOOGLE_CLIENT_ID: process.env.E2E_GOOGLE_CLIENT_ID,
        GIFSHELF_OIDC_ISSUER: process.env.E2E_OIDC_ISSUER,
        GIFSHELF_REGISTER_MAX_PER_ADDRESS: '10000',
      },
    },
  ],
});

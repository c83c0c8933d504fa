/**
 * Every foundation text of the specification (shared/spec/texts.md) must appear in the source
 * exactly as written; `{x}` placeholders may be filled in any way.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !full.includes(`${path.sep}test${path.sep}`)
      ? [full]
      : [];
  });
}

const corpus = sourceFiles(srcDir)
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

/** The texts of the screens and behaviour built so far (header, auth, settings, toasts, session, client). */
const foundationTexts = [
  'Hello, {username}',
  'Continue with Google',
  'Create an Account',
  'Settings',
  'Loading user profile...',
  'Profile Settings',
  'Change Password',
  'Beware: If Google Login is used, changing this Email will break it.',
  'Close notification',
  'Session expired on app start',
  'Your session has expired',
  'auth-failed',
  'Session expired',
  'Profile updated successfully. Please log in again with your new username.',
  'Password changed successfully',
  'Passwords do not match',
  'New passwords do not match',
  'No authentication token',
  'Token expired',
  'Authentication failed ({status}) - please log in again',
  'Server error - please try again later',
  'Network error - check your connection',
  'Login failed',
  'Registration failed',
  'Google login failed',
  'Invalid token received from server',
  'Failed to load user profile: {server error or Unknown error}',
  'Failed to update profile',
  'Failed to change password',
];

/** Header labels the spec names without quotes. */
const foundationLabels = [
  'Cloud', 'Gifs', 'Tags', 'Mine', 'Upload', 'Settings', 'Statistics', 'Logout', 'Login',
  'Light', 'Dark', 'System', 'Username', 'Password', 'Email', 'Confirm Password',
];

/** Literal pieces of a text with placeholders; "{server error or Unknown error}" keeps "Unknown error". */
function fragments(text: string): string[] {
  const pieces = text.split(/\{[^}]*\}/).map((p) => p.trim()).filter(Boolean);
  if (text.includes('{server error or Unknown error}')) pieces.push('Unknown error');
  return pieces;
}

describe('spec texts', () => {
  const textsMdPath = path.join(srcDir, '../../../shared/spec/texts.md');
  it.skipIf(!existsSync(textsMdPath))('the list matches texts.md', () => {
    const textsMd = readFileSync(textsMdPath, 'utf8');
    for (const text of foundationTexts) expect(textsMd).toContain(`\`${text}\``);
  });

  it.each(foundationTexts)('"%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(foundationLabels)('label "%s" appears as a text node or string', (label) => {
    expect(corpus).toMatch(new RegExp(`[>'"\`]\\s*${label}\\s*[<'"\`]`));
  });
});

/**
 * Every foundation text of the specification (docs/texts.md) must appear in the source
 * exactly as written; `{x}` placeholders may be filled in any way.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
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

/** The texts of the GIF screens: gallery, detail, edit, upload, and their errors. */
const gifTexts = [
  'Search results for "{term}"',
  'GIFs tagged with "{tag}"',
  'GIFs by {username}',
  'All GIFs',
  'Search GIFs by title, description, or tags...',
  '{n} views',
  'Load More',
  'Loading...',
  'Loading GIFs...',
  'Error: {message}',
  'No GIFs found. Try different search terms.',
  'Try a different tag.',
  'No GIFs uploaded yet.',
  'Loading GIF...',
  'GIF not found',
  'Show Natural Size',
  'Show Fixed Size',
  'Share this GIF',
  'Copied!',
  'Back to Gallery',
  'Are you sure you want to delete this GIF?',
  'Edit GIF',
  'Available tags',
  'Maximum file size: 10MB',
  'GIF uploaded successfully!',
  'File size exceeds 10MB limit. Your file is {x}MB.',
  'File Too Large',
  'Please select a valid image file (GIF, PNG, JPEG, or WebP).',
  'Invalid File Type',
  'File selected: {name} ({x}MB)',
  'Please select a file to upload.',
  'Please enter a title for your GIF.',
  'Failed to fetch gifs',
  'Failed to fetch gifs by tag',
  'Failed to fetch user gifs',
  'Failed to upload gif',
  'Failed to update gif',
  'Failed to delete gif',
  'Failed to search gifs',
  'Failed to fetch tags',
  'Failed to create tag',
  'Failed to load GIF',
  'Failed to delete GIF',
  'Failed to update GIF',
  'Upload Failed',
  'File size exceeds server limit. Please choose a smaller file.',
  'Invalid file format or corrupted file. Please try a different file.',
  'Failed to upload GIF. Please try again.',
];

/** The texts of the Tags page and the tag cloud, and the tag errors of §8. */
const tagTexts = [
  'Browse by Tags',
  'Manage Tags',
  'Create a New Tag',
  '{name} ({count})',
  'No tags found.',
  'Delete Tag',
  'Delete Empty Tags',
  'Are you sure you want to delete all tags with 0 GIFs?',
  'Loading tags...',
  'Error: {message}',
  'Failed to fetch tags',
  'Failed to create tag',
  'Failed to delete tag',
  'Failed to update tag',
  'Failed to delete empty tags',
];

/** The texts of the admin Statistics dashboard and its errors (§2, §8). */
const statsTexts = [
  'Application Statistics',
  'Analytics and insights',
  'Last updated',
  'Refreshing...',
  'Detailed Analysis',
  'Loading statistics...',
  'Error Loading Statistics',
  '{n} empty',
  'Today | {n} this week',
  'Click on bars to see GIFs with this tag',
  'Daily Uploads (Last 7 Days)',
  'Size Distribution Details',
  'Content Type Details',
  'Detailed Data: {range, name or type}',
  'Loading detailed data...',
  'No data available',
  'Failed to fetch application stats',
  'Failed to fetch detailed stats',
];

/** Statistics labels the spec names without quotes. */
const statsLabels = [
  'Refresh Data', 'Overview', 'Retry', 'Total GIFs', 'Total Users', 'Total Tags', 'Total Views',
  'Avg Tags per GIF', 'Avg GIFs per User', 'Avg Views per GIF', 'Total Storage', 'Recent Activity',
  'Most Used Tags', 'Top Users by GIF Count', 'Most Viewed GIFs', 'Tag Distribution',
  'User Activity Distribution', 'GIF Size Distribution', 'Content Type Statistics', 'Size Range', 'Type',
  'Count', 'Avg Size (MB)', 'GIF ID', 'Title', 'Size (MB)', 'Views', 'User ID', 'Username', 'GIF Count',
  'Content Type', 'Close',
];

/** GIF screen labels the spec names without quotes. */
const gifLabels = [
  'Search', 'Static Thumbnail', 'Thumbnail', 'Original Gif', 'File Information', 'Copy', 'Edit',
  'Delete', 'Title *', 'Description', 'Add', 'Update GIF', 'Cancel', 'Upload GIF',
];

/** The GIF maker's texts (docs/texts.md, "GIF maker"). */
const makerTexts = [
  'Make a GIF',
  'Choose a video or GIF',
  'Record screen',
  'Record camera',
  'Recording starts in {n}…',
  'Stop recording',
  'Clear crop',
  'Frames per second',
  'About {x} MB · {w} × {h} px · {n} frames',
  'That is over the upload limit of {x} MB: choose a smaller width, fewer frames per second or a shorter clip.',
  'Make GIF',
  'Sending the source...',
  'Making the GIF...',
  'GIF made!',
  'Making the GIF failed',
  'Failed to make GIF',
  'The GIF is still being made. Leave this page?',
  'Edit a copy',
  'Made from {title}',
];

/** The search box's suggestions and the text in GIFs (docs/texts.md, "Search suggestions and the text in GIFs"). */
const searchTexts = [
  'Search suggestions',
  'popular search',
  '{n} suggestions',
  '1 suggestion',
  'Text in this GIF',
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
  const textsMdPath = path.join(srcDir, '../../docs/texts.md');
  it('the list matches docs/texts.md', () => {
    const textsMd = readFileSync(textsMdPath, 'utf8');
    for (const text of [...foundationTexts, ...gifTexts, ...tagTexts, ...statsTexts]) expect(textsMd).toContain(`\`${text}\``);
    for (const label of statsLabels) expect(textsMd).toContain(`\`${label}\``);
  });

  it.each(statsTexts)('Statistics text "%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(statsLabels)('Statistics label "%s" appears as a text node or string', (label) => {
    expect(corpus).toMatch(new RegExp(`[>'"\`]\\s*${escapeRegExp(label)}\\s*[<'"\`]`));
  });

  it.each(gifTexts)('GIF screen text "%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(tagTexts)('Tags / Tag cloud text "%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(gifLabels)('GIF screen label "%s" appears as a text node or string', (label) => {
    expect(corpus).toMatch(new RegExp(`[>'"\`]\\s*${escapeRegExp(label)}\\s*[<'"\`]`));
  });

  it('the maker texts are in docs/texts.md', () => {
    const textsMd = readFileSync(textsMdPath, 'utf8');
    for (const text of makerTexts) for (const piece of fragments(text)) expect(textsMd).toContain(piece);
  });

  it('the search suggestion texts are in docs/texts.md', () => {
    const textsMd = readFileSync(textsMdPath, 'utf8');
    for (const text of searchTexts) expect(textsMd).toContain(`"${text}"`);
  });

  it.each(searchTexts)('search suggestion text "%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(makerTexts)('maker text "%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(foundationTexts)('"%s" appears in the source', (text) => {
    for (const piece of fragments(text)) expect(corpus).toContain(piece);
  });

  it.each(foundationLabels)('label "%s" appears as a text node or string', (label) => {
    expect(corpus).toMatch(new RegExp(`[>'"\`]\\s*${label}\\s*[<'"\`]`));
  });
});

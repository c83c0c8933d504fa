import type { GifDto } from '@/api/generated/GifDto';
import { shareUrl } from './api/query-keys';

/** One way to put a GIF somewhere else. */
export type Embed = { label: string; value: string; multiline: boolean };

const EXTENSIONS: Record<string, string> = {
  'image/gif': 'gif',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Markdown's alt text may not hold brackets unescaped. */
const escapeMarkdown = (text: string) => text.replace(/([\\[\]])/g, '\\$1');

/**
 * The share block's codes: the share page (Link), the public image under the share id (Direct
 * link, `/s/{shareId}.gif`), and Markdown, HTML and BBCode embedding that image.
 */
export function embedsFor(gif: Pick<GifDto, 'shareId' | 'title' | 'contentType' | 'contentWidth' | 'contentHeight'>, origin: string): Embed[] {
  const page = shareUrl(gif.shareId, origin);
  const direct = `${page}.${EXTENSIONS[gif.contentType] ?? 'gif'}`;
  return [
    { label: 'Link', value: page, multiline: false },
    { label: 'Direct link', value: direct, multiline: false },
    { label: 'Markdown', value: `![${escapeMarkdown(gif.title)}](${direct})`, multiline: false },
    {
      label: 'HTML',
      value: `<img src="${direct}" width="${gif.contentWidth}" height="${gif.contentHeight}" alt="${escapeHtml(gif.title)}">`,
      multiline: true,
    },
    { label: 'BBCode', value: `[img]${direct}[/img]`, multiline: false },
  ];
}

import { expect, it } from 'vitest';
import { embedsFor } from './embeds';

it('offers the link, the direct image and Markdown, HTML and BBCode embeds', () => {
  const embeds = embedsFor(
    { shareId: 'abc123', title: 'Cat "dancing" <fast> [x]', contentType: 'image/webp', contentWidth: 320, contentHeight: 240 },
    'https://gifs.example.com',
  );
  expect(Object.fromEntries(embeds.map((e) => [e.label, e.value]))).toEqual({
    Link: 'https://gifs.example.com/s/abc123',
    'Direct link': 'https://gifs.example.com/s/abc123.webp',
    Markdown: '![Cat "dancing" <fast> \\[x\\]](https://gifs.example.com/s/abc123.webp)',
    HTML: '<img src="https://gifs.example.com/s/abc123.webp" width="320" height="240" alt="Cat &quot;dancing&quot; &lt;fast&gt; [x]">',
    BBCode: '[img]https://gifs.example.com/s/abc123.webp[/img]',
  });
});

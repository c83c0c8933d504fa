import type { GifDto } from '@/api/generated/GifDto';
import type { PagedGifs } from '@/api/generated/PagedGifs';

export { urlOf } from './fetch';

export function makeGif(id: number, overrides: Partial<GifDto> = {}): GifDto {
  return {
    id,
    title: `Gif ${id}`,
    description: `Description ${id}`,
    tags: [{ id: 1, name: 'cats' }],
    viewCount: 3,
    uploadedBy: 'alice',
    uploadedAt: '2026-01-02T03:04:05Z',
    shareId: `share${id}`,
    contentType: 'image/gif',
    contentSize: 2048,
    contentWidth: 400,
    contentHeight: 300,
    frameCount: 4,
    thumbnailSize: 1024,
    thumbnailWidth: 320,
    thumbnailStaticSize: 512,
    thumbnailStaticWidth: 320,
    favourite: false,
    favouriteCount: 0,
    shareCount: 0,
    renditions: [],
    rating: 'g',
    madeFrom: null,
    hidden: null,
    captionText: null,
    ...overrides,
  };
}

export function makePage(
  content: GifDto[],
  { page = 0, totalPages = 1, totalElements = content.length }: Partial<{
    page: number;
    totalPages: number;
    totalElements: number;
  }> = {},
): PagedGifs {
  return {
    content,
    currentPage: page,
    totalPages,
    totalElements,
    hasNext: page + 1 < totalPages,
    hasPrevious: page > 0,
  };
}

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** Stats payloads for the unit tests of this feature. */
import type { DetailedStats } from '@/api/generated/DetailedStats';
import type { OverviewStats } from '@/api/generated/OverviewStats';

export function makeOverview(overrides: Partial<OverviewStats> = {}): OverviewStats {
  return {
    totalGifs: 12,
    totalUsers: 3,
    totalTags: 5,
    emptyTagsCount: 2,
    totalViews: 45,
    averageTagsPerGif: 1.5,
    averageGifsPerUser: 4,
    averageViewsPerGif: 3.75,
    totalContentSizeBytes: 1536 * 1024,
    totalContentSizeMB: 1.5,
    gifsUploadedToday: 2,
    gifsUploadedThisWeek: 6,
    lastUpdated: '2026-01-02T03:04:05Z',
    mostUsedTags: [
      ['funny', '5'],
      ['cats', '3'],
    ],
    topUsers: [
      ['alice', '8'],
      ['bob', '4'],
    ],
    mostViewedGifs: [
      ['A very long dancing cat title', '20'],
      ['Short', '9'],
    ],
    mostFavouritedGifs: [['Short', '3']],
    totalShares: 2,
    mostSharedGifs: [['Short', '2']],
    ...overrides,
  };
}

export function makeDetailed(overrides: Partial<DetailedStats> = {}): DetailedStats {
  return {
    dailyUploadsLastWeek: [
      ['2026-01-01', '0'],
      ['2026-01-02', '1'],
      ['2026-01-03', '0'],
      ['2026-01-04', '2'],
      ['2026-01-05', '0'],
      ['2026-01-06', '3'],
      ['2026-01-07', '1'],
    ],
    tagDistribution: [
      ['funny', '3'],
      ['cats', '1'],
    ],
    userActivityStats: [
      ['inactive', '1'],
      ['casual', '2'],
      ['active', '0'],
      ['power', '0'],
    ],
    sizeBuckets: [
      ['0-100KB', '10', '0.04'],
      ['100KB-500KB', '2', '0.21'],
      ['500KB-1MB', '0', '0.00'],
      ['1MB-5MB', '0', '0.00'],
      ['5MB-10MB', '0', '0.00'],
    ],
    contentTypeStats: [['image/gif', '12', '0.07']],
    ...overrides,
  };
}

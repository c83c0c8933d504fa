import type { CreateReportRequest } from '@/api/generated/CreateReportRequest';

export type ReportReason = CreateReportRequest['reason'];

/** The reasons a member may report a GIF for, in the dialog's order (docs/texts.md). */
export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'offensive', label: 'Offensive content' },
  { value: 'copyright', label: 'Copyright infringement' },
  { value: 'other', label: 'Other' },
];

export function reasonLabel(reason: string): string {
  return REPORT_REASONS.find((r) => r.value === reason)?.label ?? reason;
}

/** The longest note a report takes (the server's limit). */
export const REPORT_NOTE_MAX = 500;

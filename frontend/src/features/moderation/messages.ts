/** The Moderation screen's and the report dialog's texts (docs/texts.md, "Moderation"). */
export const MSG_NO_REPORTS = 'No open reports. Nothing to review.';
export const MSG_NO_HIDDEN = 'No GIF is hidden.';
export const MSG_GIF_HIDDEN = 'GIF hidden';
export const MSG_REPORT_DISMISSED = 'Report dismissed';
export const MSG_GIF_RESTORED = 'GIF restored';
export const MSG_REPORT_SENT = 'Report sent. An administrator will look at it.';
export const MSG_REPORT_PICK_REASON = 'Please choose a reason';

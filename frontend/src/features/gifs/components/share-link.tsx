import { CopyField } from '@/components/copy-field/copy-field';

export { COPIED_MS, CopyField } from '@/components/copy-field/copy-field';

/** "Share this GIF": the public link, read-only, with a Copy button that says "Copied!" for 2 s. */
export function ShareLink({ url, onCopied }: { url: string; onCopied?: () => void }) {
  return <CopyField label="Share this GIF" value={url} onCopied={onCopied} />;
}

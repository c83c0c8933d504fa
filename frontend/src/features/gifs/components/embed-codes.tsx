import type { GifDto } from '@/api/generated/GifDto';
import { useToast } from '@/components/toast/toast-provider';
import { embedsFor } from '../embeds';
import { CopyField, copiedMessage } from '@/components/copy-field/copy-field';

export { copiedMessage } from '@/components/copy-field/copy-field';

/** The share block: the share link first, then the direct image link and Markdown, HTML and BBCode embeds. */
export function EmbedCodes({ gif, origin = window.location.origin }: { gif: GifDto; origin?: string }) {
  const toast = useToast();
  const [link, ...embeds] = embedsFor(gif, origin);
  return (
    <div className="embed-codes">
      {link && <CopyField label="Share this GIF" value={link.value} onCopied={() => toast.success(copiedMessage('Link'))} />}
      <details className="embed-codes__more" open>
        <summary className="detail-section__title">Embed</summary>
        {embeds.map((embed) => (
          <CopyField
            key={embed.label}
            label={embed.label}
            value={embed.value}
            multiline={embed.multiline}
            copyLabel={`Copy ${embed.label}`}
            onCopied={() => toast.success(copiedMessage(embed.label))}
          />
        ))}
      </details>
    </div>
  );
}

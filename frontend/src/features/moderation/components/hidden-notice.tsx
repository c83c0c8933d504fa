import type { GifDto } from '@/api/generated/GifDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { MSG_MODERATE_FAILED, useSetGifHidden } from '../api/moderation';
import { MSG_GIF_RESTORED } from '../messages';
import './moderation.css';

/** On a hidden GIF's detail page (its owner and admins only see it): why, and Restore for admins. */
export function HiddenNotice({ gif, isAdmin }: { gif: GifDto; isAdmin: boolean }) {
  const restore = useSetGifHidden();
  const toast = useToast();
  if (!gif.hidden) return null;
  const onRestore = () =>
    restore.mutate(
      { id: gif.id, hidden: false },
      {
        onSuccess: () => toast.success(MSG_GIF_RESTORED),
        onError: (error) => toast.error(errorMessage(error, MSG_MODERATE_FAILED)),
      },
    );
  return (
    <div className="hidden-notice" role="status">
      <p className="hidden-notice__text">
        <strong>Hidden by a moderator: {gif.hidden.reason}</strong>
        {isAdmin ? null : ' Only you and the administrators can see this GIF.'}
      </p>
      {isAdmin && (
        <button type="button" className="btn btn--secondary" disabled={restore.isPending} onClick={onRestore}>
          Restore
        </button>
      )}
    </div>
  );
}

import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError, errorMessage } from '@/lib/api-client';
import { getRandomGif } from '../api/get-random-gif';
import { randomScope } from '../gallery';

export const MSG_NOTHING_TO_PICK = 'There is no GIF to pick from here yet.';

/** "Random" in the header: opens a random GIF of the tag, uploader or search on screen, or of all. */
export function RandomButton({ className }: { className: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const [picking, setPicking] = useState(false);

  const onClick = () => {
    setPicking(true);
    getRandomGif(randomScope(location.pathname, location.search))
      .then((gif) => navigate(paths.gif(gif.id)))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) toast.info(MSG_NOTHING_TO_PICK);
        else toast.error(errorMessage(error, 'Failed to pick a GIF'));
      })
      .finally(() => setPicking(false));
  };

  return (
    <button type="button" className={className} onClick={onClick} disabled={picking}>
      Random
    </button>
  );
}
